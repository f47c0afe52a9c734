import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'join',
  category: 'String',
  description: 'Concatenates an array of strings, with an optional separator between them.',
  parameters: [
    { name: 'value', kinds: K.Array, required: true },
    { name: 'separator', kinds: K.Bytes, required: false },
  ],
  fallible: true,
  returns: BYTES,
  examples: [
    { title: 'Join array (no separator)', source: 'join!(["bring", "us", "together"])', returns: '"bringustogether"' },
    {
      title: 'Join array (comma separator)',
      source: 'join!(["sources", "transforms", "sinks"], separator: ", ")',
      returns: '"sources, transforms, sinks"',
    },
  ],
});
