import { Value } from '../value';
import { boundariesOf, convertCase, WordCase } from './support/word-case';

/** `pascalcase(value, original_case)`: the words of the string written as PascalCase. */
export function fn_pascalcase(value: Value, originalCase: Value): Value {
  const boundaries = boundariesOf(originalCase, 0);
  return boundaries < 0 ? 0 : convertCase(value, <u32>boundaries, WordCase.Pascal, 0);
}
