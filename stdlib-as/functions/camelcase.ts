import { Value } from '../value';
import { boundariesOf, convertCase, WordCase } from './support/word-case';

/** `camelcase(value, original_case)`: the words of the string written as camelCase. */
export function fn_camelcase(value: Value, originalCase: Value): Value {
  const boundaries = boundariesOf(originalCase, 0);
  return boundaries < 0 ? 0 : convertCase(value, <u32>boundaries, WordCase.Camel, 0);
}
