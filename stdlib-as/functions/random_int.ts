import { Value, intOf, newInt } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { randomBelow } from './support/random';
import { KindBit } from '../../abi/wire/kinds';

/** `random_int(min, max)`: uniform from `min` (included) to `max` (excluded). */
export function fn_random_int(min: Value, max: Value): Value {
  if (!expectKinds(min, KindBit.Integer) || !expectKinds(max, KindBit.Integer)) return 0;
  const low = intOf(min);
  const high = intOf(max);
  if (high <= low) return failWith('max must be greater than min');
  return newInt(low + <i64>randomBelow(<u64>(high - low)));
}
