import { defineFunction } from './define.js';
import { K, BYTES, arrayOf, union, only, elementsOf, fromBits, type Kind } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'slice',
  category: 'String',
  description: 'Returns part of a string or array from `start` up to `end`; negative positions count from the end.',
  parameters: [
    { name: 'value', kinds: K.Bytes | K.Array, required: true },
    { name: 'start', kinds: K.Integer, required: true },
    { name: 'end', kinds: K.Integer, required: false, default: 'String length' },
  ],
  fallible: true,
  returns: (call) => {
    const value = argKind(call, 'value');
    const parts: Kind[] = [];
    if (value.bits & K.Bytes) parts.push(BYTES);
    if (value.bits & K.Array) parts.push(arrayOf(elementsOf(only(value, K.Array))));
    return parts.length ? union(...parts) : fromBits(K.Bytes | K.Array);
  },
  examples: [
    {
      title: 'Slice a string (positive index)',
      source: 'slice!("Supercalifragilisticexpialidocious", start: 5, end: 13)',
      returns: '"califrag"',
    },
    {
      title: 'Slice a string (negative index)',
      source: 'slice!("Supercalifragilisticexpialidocious", start: 5, end: -14)',
      returns: '"califragilistic"',
    },
    { title: 'String start', source: 'slice!("foobar", 3)', returns: '"bar"' },
    { title: 'Array start', source: 'slice!([0, 1, 2], 1)', returns: '[1, 2]' },
  ],
});
