import { defineFunction } from './define.js';
import { K, ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'parse_ruby_hash',
  category: 'Parse',
  description: 'Parses the text of a Ruby hash literal (`{ "key" => value }`, with `nil` for null) into an object.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: objectOf(ANY),
  backing: { kind: 'js', library: 'JS (hand-written parser)' },
  examples: [
    {
      title: 'Parse ruby hash',
      source:
        'parse_ruby_hash!(s\'{ "test" => "value", "testNum" => 0.2, "testObj" => { "testBool" => true, "testNull" => nil } }\')',
      returns: '{ "test": "value", "testNum": 0.2, "testObj": { "testBool": true, "testNull": null } }',
    },
  ],
});
