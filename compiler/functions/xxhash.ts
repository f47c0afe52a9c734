// The variant is checked at run time, so only a literal naming a known variant makes the call safe.

import { defineFunction } from './define.js';
import { K, BYTES, INTEGER, union } from '../types/kind.js';
import { constantString, fallibleUnlessKnownAlgorithm } from './support/rules.js';

const VARIANTS = ['XXH32', 'XXH64', 'XXH3-64', 'XXH3-128'];

export default defineFunction({
  name: 'xxhash',
  category: 'Checksum',
  description:
    'Computes an xxHash of a string: XXH32 (the default), XXH64 or XXH3-64 as a signed 64-bit integer, XXH3-128 as a decimal string.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'variant', kinds: K.Bytes, required: false, default: 'XXH32' },
  ],
  fallible: fallibleUnlessKnownAlgorithm('variant', VARIANTS),
  backing: { kind: 'js', library: 'hash-wasm' },
  returns: (call) => {
    const variant = constantString(call.args.variant)?.toUpperCase() ?? (call.args.variant ? undefined : 'XXH32');
    if (variant === 'XXH3-128') return BYTES;
    return variant && VARIANTS.includes(variant) ? INTEGER : union(INTEGER, BYTES);
  },
  examples: [
    { title: 'Calculate a hash using the default (XXH32) algorithm', source: 'xxhash("foo")', returns: '3792637401' },
    { title: 'Calculate a hash using the XXH32 algorithm', source: 'xxhash("foo", "XXH32")', returns: '3792637401' },
    {
      title: 'Calculate a hash using the XXH64 algorithm',
      source: 'xxhash("foo", "XXH64")',
      returns: '3728699739546630719',
    },
    {
      title: 'Calculate a hash using the XXH3-64 algorithm',
      source: 'xxhash("foo", "XXH3-64")',
      returns: '-6093828362558603894',
    },
    {
      title: 'Calculate a hash using the XXH3-128 algorithm',
      source: 'xxhash("foo", "XXH3-128")',
      returns: '"161745101148472925293886522910304009610"',
    },
  ],
});
