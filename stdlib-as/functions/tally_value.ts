// `tally_value(array, value)`: how many items of the array equal `value` (strict equality, as VRL's `==` on
// values: `1` and `1.0` differ).

import { Value, newInt, arrayLen, arrayGet } from '../value';
import { value_eq } from '../ops';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_tally_value(array: Value, value: Value): Value {
  if (!expectKinds(array, KindBit.Array)) return 0;
  let count: i64 = 0;
  for (let i: usize = 0, n = arrayLen(array); i < n; i++) if (value_eq(arrayGet(array, i), value)) count++;
  return newInt(count);
}
