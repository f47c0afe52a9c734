import { defineFunction } from './define.js';
import { K, ANY_BITS, BOOLEAN, intersects } from '../types/kind.js';
import { argKind } from './support/rules.js';

/** Strings may not spell a boolean, and timestamps, regexes and collections cannot be converted. */
const MAY_FAIL = K.Bytes | K.Timestamp | K.Regex | K.Array | K.Object;

export default defineFunction({
  name: 'to_bool',
  category: 'Coerce',
  description:
    'Converts a value to a boolean: strings such as `yes`, `no`, `true`, `f` or `0` are read, numbers are true unless zero, and null is false.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: (call) => intersects(argKind(call, 'value'), { bits: MAY_FAIL }),
  returns: BOOLEAN,
  examples: [
    { title: 'Coerce to a Boolean (string)', source: 'to_bool!("yes")', returns: 'true' },
    { title: 'Coerce to a Boolean (float)', source: 'to_bool(0.0)', returns: 'false' },
    { title: 'Coerce to a Boolean (int)', source: 'to_bool(0)', returns: 'false' },
    { title: 'Coerce to a Boolean (null)', source: 'to_bool(null)', returns: 'false' },
    { title: 'Coerce to a Boolean (Boolean)', source: 'to_bool(true)', returns: 'true' },
    { title: 'Integer (other)', source: 'to_bool(2)', returns: 'true' },
    { title: 'Float (other)', source: 'to_bool(5.6)', returns: 'true' },
    { title: 'False', source: 'to_bool(false)', returns: 'false' },
    { title: 'True string', source: "to_bool!(s'true')", returns: 'true' },
    { title: 'Y string', source: "to_bool!(s'y')", returns: 'true' },
    { title: 'Non-zero integer string', source: "to_bool!(s'1')", returns: 'true' },
    { title: 'False string', source: "to_bool!(s'false')", returns: 'false' },
    { title: 'No string', source: "to_bool!(s'no')", returns: 'false' },
    { title: 'N string', source: "to_bool!(s'n')", returns: 'false' },
    {
      title: 'Invalid string',
      source: "to_bool!(s'foobar')",
      raises: 'function call error for "to_bool" at (0:19): Invalid boolean value "foobar"',
    },
    {
      title: 'Timestamp',
      source: "to_bool!(t'2020-01-01T00:00:00Z')",
      raises: 'function call error for "to_bool" at (0:33): unable to coerce timestamp into boolean',
    },
    {
      title: 'Array',
      source: 'to_bool!([])',
      raises: 'function call error for "to_bool" at (0:12): unable to coerce array into boolean',
    },
    {
      title: 'Object',
      source: 'to_bool!({})',
      raises: 'function call error for "to_bool" at (0:12): unable to coerce object into boolean',
    },
    {
      title: 'Regex',
      source: "to_bool!(r'foo')",
      raises: 'function call error for "to_bool" at (0:16): unable to coerce regex into boolean',
    },
  ],
});
