import { Value } from '../value';
import { boundariesOf, convertCase, WordCase } from './support/word-case';

/** `snakecase(value, original_case, excluded_boundaries)`: the words of the string written as snake_case. */
export function fn_snakecase(value: Value, originalCase: Value, excludedBoundaries: Value): Value {
  const boundaries = boundariesOf(originalCase, excludedBoundaries);
  return boundaries < 0 ? 0 : convertCase(value, <u32>boundaries, WordCase.Lower, 0x5f);
}
