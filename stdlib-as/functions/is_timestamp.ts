// `is_timestamp(value)`: whether the value is a timestamp.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_timestamp(value: Value): Value {
  return newBool(tagOf(value) == Tag.Timestamp);
}
