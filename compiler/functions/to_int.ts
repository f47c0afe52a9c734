import { defineFunction } from './define.js';
import { K, ANY_BITS, INTEGER, intersects } from '../types/kind.js';
import { argKind } from './support/rules.js';

/** Strings may not hold an integer, and regexes and collections cannot be converted. */
const MAY_FAIL = K.Bytes | K.Regex | K.Array | K.Object;

export default defineFunction({
  name: 'to_int',
  category: 'Coerce',
  description:
    'Converts a value to an integer: floats are truncated, strings are parsed, booleans give 1 or 0, timestamps give seconds since the epoch, and null gives 0.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: (call) => intersects(argKind(call, 'value'), { bits: MAY_FAIL }),
  returns: INTEGER,
  examples: [
    { title: 'Coerce to an int (string)', source: 'to_int!("2")', returns: '2' },
    { title: 'Coerce to an int (timestamp)', source: "to_int(t'2020-12-30T22:20:53.824727Z')", returns: '1609366853' },
    { title: 'Integer', source: 'to_int(5)', returns: '5' },
    { title: 'Float', source: 'to_int(5.6)', returns: '5' },
    { title: 'True', source: 'to_int(true)', returns: '1' },
    { title: 'False', source: 'to_int(false)', returns: '0' },
    { title: 'Null', source: 'to_int(null)', returns: '0' },
    {
      title: 'Invalid string',
      source: "to_int!(s'foobar')",
      raises: 'function call error for "to_int" at (0:18): Invalid integer "foobar": invalid digit found in string',
    },
    {
      title: 'Array',
      source: 'to_int!([])',
      raises: 'function call error for "to_int" at (0:11): unable to coerce array into integer',
    },
    {
      title: 'Object',
      source: 'to_int!({})',
      raises: 'function call error for "to_int" at (0:11): unable to coerce object into integer',
    },
    {
      title: 'Regex',
      source: "to_int!(r'foo')",
      raises: 'function call error for "to_int" at (0:15): unable to coerce regex into integer',
    },
  ],
});
