import { Value } from '../value';
import { roundNumber, Rounding } from './support/rounding';

/** `ceil(value, precision = 0)`: rounds up, at `precision` decimal places. */
export function fn_ceil(value: Value, precision: Value): Value {
  return roundNumber(value, precision, Rounding.Ceil);
}
