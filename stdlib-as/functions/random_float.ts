import { Value, floatOf, newFloat } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { randomU64 } from './support/random';
import { KindBit } from '../../abi/wire/kinds';

/** `random_float(min, max)`: uniform from `min` (included) to `max` (excluded). */
export function fn_random_float(min: Value, max: Value): Value {
  if (!expectKinds(min, KindBit.Float) || !expectKinds(max, KindBit.Float)) return 0;
  const low = floatOf(min);
  const high = floatOf(max);
  if (!(high > low)) return failWith('max must be greater than min');
  let x: f64;
  do {
    const unit = <f64>(randomU64() >> 11) * 1.1102230246251565e-16; // 53 random bits over 2^53: [0, 1)
    // Interpolating from both ends stays finite even when `high - low` overflows; rounding can reach
    // `high`, which is then drawn again.
    x = low * (1 - unit) + high * unit;
  } while (!(x >= low && x < high));
  return newFloat(x);
}
