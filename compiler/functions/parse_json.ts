import { defineFunction } from './define.js';
import { K, JSON_KIND } from '../types/kind.js';

export default defineFunction({
  name: 'parse_json',
  category: 'Parse',
  description:
    'Parses JSON text into a remap value. With `max_depth`, levels nested deeper are kept as raw JSON strings; `lossy` replaces invalid UTF-8 instead of failing.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'max_depth', kinds: K.Integer, required: false },
    { name: 'lossy', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: JSON_KIND,
  examples: [
    { title: 'Parse JSON', source: 'parse_json!(s\'{"key": "val"}\')', returns: '{ "key": "val" }' },
    { title: 'Parse JSON array', source: 'parse_json!("[true, 0]")', returns: '[true, 0]' },
    { title: 'Parse JSON string', source: 'parse_json!(s\'"hello"\')', returns: '"hello"' },
    { title: 'Parse JSON integer', source: 'parse_json!("42")', returns: '42' },
    { title: 'Parse JSON float', source: 'parse_json!("42.13")', returns: '42.13' },
    { title: 'Parse JSON boolean', source: 'parse_json!("false")', returns: 'false' },
    {
      title: 'Invalid JSON value',
      source: 'parse_json!("{ INVALID }")',
      raises:
        'function call error for "parse_json" at (0:26): unable to parse json: key must be a string at line 1 column 3',
    },
    {
      title: 'Parse JSON with max_depth',
      source: 'parse_json!(s\'{"first_level":{"second_level":"finish"}}\', max_depth: 1)',
      returns: '{ "first_level": "{\\"second_level\\":\\"finish\\"}" }',
    },
  ],
});
