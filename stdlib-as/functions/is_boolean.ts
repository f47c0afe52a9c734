// `is_boolean(value)`: whether the value is a boolean.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_boolean(value: Value): Value {
  return newBool(tagOf(value) == Tag.Bool);
}
