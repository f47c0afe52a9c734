// `is_string(value)`: whether the value is a string.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_string(value: Value): Value {
  return newBool(tagOf(value) == Tag.Bytes);
}
