// `parse_logfmt(value)`: parse_key_value with its defaults (`=`, spaces, lenient whitespace, standalone
// keys as `true`).

import { Value } from '../value';
import { fn_parse_key_value } from './parse_key_value';

export function fn_parse_logfmt(value: Value): Value {
  return fn_parse_key_value(value, 0, 0, 0, 0);
}
