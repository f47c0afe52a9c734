// `is_float(value)`: whether the value is a float.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_float(value: Value): Value {
  return newBool(tagOf(value) == Tag.Float);
}
