import { Value, newBool } from '../value';
import { randomU64 } from './support/random';

/** `random_bool()`. */
export function fn_random_bool(): Value {
  return newBool((randomU64() & 1) != 0);
}
