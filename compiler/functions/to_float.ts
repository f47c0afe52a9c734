import { defineFunction } from './define.js';
import { K, ANY_BITS, FLOAT, intersects } from '../types/kind.js';
import { argKind } from './support/rules.js';

/** Strings may not hold a number, and regexes and collections cannot be converted. */
const MAY_FAIL = K.Bytes | K.Regex | K.Array | K.Object;

export default defineFunction({
  name: 'to_float',
  category: 'Coerce',
  description:
    'Converts a value to a float: integers widen, strings are parsed, booleans give 1.0 or 0.0, timestamps give seconds since the epoch with a fraction, and null gives 0.0.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: (call) => intersects(argKind(call, 'value'), { bits: MAY_FAIL }),
  returns: FLOAT,
  examples: [
    { title: 'Coerce to a float', source: 'to_float!("3.145")', returns: '3.145' },
    {
      title: 'Coerce to a float (timestamp)',
      source: "to_float(t'2020-12-30T22:20:53.824727Z')",
      returns: '1609366853.824727',
    },
    { title: 'Integer', source: 'to_float(5)', returns: '5.0' },
    { title: 'Float', source: 'to_float(5.6)', returns: '5.6' },
    { title: 'True', source: 'to_float(true)', returns: '1.0' },
    { title: 'False', source: 'to_float(false)', returns: '0.0' },
    { title: 'Null', source: 'to_float(null)', returns: '0.0' },
    {
      title: 'Invalid string',
      source: "to_float!(s'foobar')",
      raises:
        'function call error for "to_float" at (0:20): Invalid floating point number "foobar": invalid float literal',
    },
    {
      title: 'Array',
      source: 'to_float!([])',
      raises: 'function call error for "to_float" at (0:13): unable to coerce array into float',
    },
    {
      title: 'Object',
      source: 'to_float!({})',
      raises: 'function call error for "to_float" at (0:13): unable to coerce object into float',
    },
    {
      title: 'Regex',
      source: "to_float!(r'foo')",
      raises: 'function call error for "to_float" at (0:17): unable to coerce regex into float',
    },
  ],
});
