import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'uuid_from_friendly_id',
  category: 'Random',
  description: 'Converts a friendly id (the base62 form of a 128-bit number) into the UUID with the same bits.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    {
      title: 'Convert a Friendly ID to a UUID',
      source: 'uuid_from_friendly_id!("3s87yEvnmkiPBMHsj8bwwc")',
      returns: '"7f41deed-d5e2-8b5e-7a13-ab4ff93cfad2"',
    },
  ],
});
