import { defineFunction } from './define.js';
import { K, JSON_KIND } from '../types/kind.js';

export default defineFunction({
  name: 'parse_yaml',
  category: 'Parse',
  description: 'Parses a YAML document (JSON included) into a remap value.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: JSON_KIND,
  backing: { kind: 'js', library: 'yaml' },
  examples: [
    { title: 'Parse simple YAML', source: "parse_yaml!(s'key: val')", returns: '{ "key": "val" }' },
    {
      title: 'Parse YAML',
      source: `parse_yaml!(s'
                    object:
                        string: value
                        number: 42
                        boolean: false
                        array:
                        - hello
                        - world
                        json_array: ["hello", "world"]
                ')`,
      returns:
        '{ "object": { "string": "value", "number": 42, "boolean": false, "array": ["hello", "world"], "json_array": ["hello", "world"] } }',
    },
    { title: 'Parse YAML string', source: "parse_yaml!(s'hello')", returns: '"hello"' },
    { title: 'Parse YAML quoted string', source: 'parse_yaml!(s\'"hello"\')', returns: '"hello"' },
    { title: 'Parse YAML integer', source: 'parse_yaml!("42")', returns: '42' },
    { title: 'Parse YAML float', source: 'parse_yaml!("42.13")', returns: '42.13' },
    { title: 'Parse YAML boolean', source: 'parse_yaml!("false")', returns: 'false' },
    { title: 'Parse embedded JSON', source: 'parse_yaml!(s\'{"key": "val"}\')', returns: '{ "key": "val" }' },
    { title: 'Parse embedded JSON array', source: 'parse_yaml!("[true, 0]")', returns: '[true, 0]' },
  ],
});
