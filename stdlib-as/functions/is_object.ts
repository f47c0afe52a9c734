// `is_object(value)`: whether the value is an object.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_object(value: Value): Value {
  return newBool(tagOf(value) == Tag.Object);
}
