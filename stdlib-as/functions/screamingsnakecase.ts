import { Value } from '../value';
import { boundariesOf, convertCase, WordCase } from './support/word-case';

/** `screamingsnakecase(value, original_case)`: the words of the string written as SCREAMING_SNAKE_CASE. */
export function fn_screamingsnakecase(value: Value, originalCase: Value): Value {
  const boundaries = boundariesOf(originalCase, 0);
  return boundaries < 0 ? 0 : convertCase(value, <u32>boundaries, WordCase.Upper, 0x5f);
}
