// `is_empty(value)`: whether a string, array or object has length zero.

import { Value, newBool } from '../value';
import { sizeOf } from './length';

export function fn_is_empty(value: Value): Value {
  const size = sizeOf(value);
  return size < 0 ? 0 : newBool(size == 0);
}
