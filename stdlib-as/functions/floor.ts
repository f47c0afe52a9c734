import { Value } from '../value';
import { roundNumber, Rounding } from './support/rounding';

/** `floor(value, precision = 0)`: rounds down, at `precision` decimal places. */
export function fn_floor(value: Value, precision: Value): Value {
  return roundNumber(value, precision, Rounding.Floor);
}
