import { Value, newBool, arrayLen, arrayGet } from '../value';
import { value_eq } from '../ops';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** `includes(value, item)`: whether an item of the array equals `item` (strictly: `1` is not `1.0`). */
export function fn_includes(value: Value, item: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  for (let i: usize = 0; i < arrayLen(value); i++) if (value_eq(arrayGet(value, i), item)) return newBool(true);
  return newBool(false);
}
