import { defineFunction } from './define.js';
import { K, ANY_BITS, BYTES, intersects } from '../types/kind.js';
import { argKind } from './support/rules.js';

/** Regexes and collections cannot be converted. */
const MAY_FAIL = K.Regex | K.Array | K.Object;

export default defineFunction({
  name: 'to_string',
  category: 'Coerce',
  description:
    'Converts a scalar to its text: numbers and booleans as written, timestamps in RFC 3339, and null as the empty string.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: (call) => intersects(argKind(call, 'value'), { bits: MAY_FAIL }),
  returns: BYTES,
  examples: [
    { title: 'Coerce to a string (Boolean)', source: 'to_string(true)', returns: "s'true'" },
    { title: 'Coerce to a string (int)', source: 'to_string(52)', returns: "s'52'" },
    { title: 'Coerce to a string (float)', source: 'to_string(52.2)', returns: "s'52.2'" },
    { title: 'String', source: "to_string(s'foo')", returns: '"foo"' },
    { title: 'False', source: 'to_string(false)', returns: "s'false'" },
    { title: 'Null', source: 'to_string(null)', returns: '""' },
    { title: 'Timestamp', source: "to_string(t'2020-01-01T00:00:00Z')", returns: '"2020-01-01T00:00:00Z"' },
    {
      title: 'Array',
      source: 'to_string!([])',
      raises: 'function call error for "to_string" at (0:14): unable to coerce array into string',
    },
    {
      title: 'Object',
      source: 'to_string!({})',
      raises: 'function call error for "to_string" at (0:14): unable to coerce object into string',
    },
    {
      title: 'Regex',
      source: "to_string!(r'foo')",
      raises: 'function call error for "to_string" at (0:18): unable to coerce regex into string',
    },
  ],
});
