import { Value, Tag, tagOf, intOf, floatOf, newInt, newFloat } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** `abs(value)`: the magnitude; `i64::MIN` stays itself, as Rust's wrapping `abs` leaves it. */
export function fn_abs(value: Value): Value {
  if (!expectKinds(value, KindBit.Integer | KindBit.Float)) return 0;
  if (tagOf(value) == Tag.Int) {
    const n = intOf(value);
    return n < 0 ? newInt(-n) : value;
  }
  return newFloat(Math.abs(floatOf(value)));
}
