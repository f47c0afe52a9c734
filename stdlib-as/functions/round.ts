import { Value } from '../value';
import { roundNumber, Rounding } from './support/rounding';

/** `round(value, precision = 0)`: rounds to the nearest, halves away from zero, at `precision` decimal places. */
export function fn_round(value: Value, precision: Value): Value {
  return roundNumber(value, precision, Rounding.HalfAwayFromZero);
}
