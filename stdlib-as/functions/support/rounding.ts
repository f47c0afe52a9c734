// Shared by `ceil`, `floor` and `round`: VRL's `round_to_precision`, which scales by 10^precision, rounds,
// and scales back. Integers come back unchanged; a NaN result becomes 0.0 (`from_f64_or_zero`).

import { Value, Tag, tagOf, intOf, floatOf, newFloat } from '../../value';
import { expectKinds } from './args';
import { KindBit } from '../../../abi/wire/kinds';

export const enum Rounding {
  Ceil,
  Floor,
  /** Halves away from zero, as Rust's `f64::round`. */
  HalfAwayFromZero,
}

export function roundNumber(value: Value, precision: Value, mode: Rounding): Value {
  if (!expectKinds(value, KindBit.Integer | KindBit.Float)) return 0;
  if (precision != 0 && !expectKinds(precision, KindBit.Integer)) return 0;
  if (tagOf(value) == Tag.Int) return value;
  const multiplier = Math.pow(10, precision == 0 ? 0 : <f64>intOf(precision));
  const scaled = floatOf(value) * multiplier;
  let rounded: f64;
  if (mode == Rounding.Ceil) rounded = Math.ceil(scaled);
  else if (mode == Rounding.Floor) rounded = Math.floor(scaled);
  else rounded = roundHalfAwayFromZero(scaled);
  const result = rounded / multiplier;
  return newFloat(isNaN(result) ? 0 : result);
}

/** Rust's `f64::round`. */
export function roundHalfAwayFromZero(x: f64): f64 {
  const truncated = Math.trunc(x);
  return Math.abs(x - truncated) >= 0.5 ? truncated + Math.sign(x) : truncated;
}
