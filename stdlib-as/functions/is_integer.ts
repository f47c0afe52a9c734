// `is_integer(value)`: whether the value is an integer.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_integer(value: Value): Value {
  return newBool(tagOf(value) == Tag.Int);
}
