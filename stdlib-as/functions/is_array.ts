// `is_array(value)`: whether the value is an array.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_array(value: Value): Value {
  return newBool(tagOf(value) == Tag.Array);
}
