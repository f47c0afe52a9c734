// `is_null(value)`: whether the value is null.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_null(value: Value): Value {
  return newBool(tagOf(value) == Tag.Null);
}
