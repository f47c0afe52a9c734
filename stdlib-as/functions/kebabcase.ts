import { Value } from '../value';
import { boundariesOf, convertCase, WordCase } from './support/word-case';

/** `kebabcase(value, original_case)`: the words of the string written as kebab-case. */
export function fn_kebabcase(value: Value, originalCase: Value): Value {
  const boundaries = boundariesOf(originalCase, 0);
  return boundaries < 0 ? 0 : convertCase(value, <u32>boundaries, WordCase.Lower, 0x2d);
}
