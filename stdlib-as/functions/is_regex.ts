// `is_regex(value)`: whether the value is a regex.

import { Value, Tag, tagOf, newBool } from '../value';

export function fn_is_regex(value: Value): Value {
  return newBool(tagOf(value) == Tag.Regex);
}
