// `parse_linux_authorization(value)`: an auth.log / secure line is a BSD syslog message; VRL reads it with
// the same loose syslog parser.

import { Value } from '../value';
import { fn_parse_syslog } from './parse_syslog';

export function fn_parse_linux_authorization(value: Value): Value {
  return fn_parse_syslog(value);
}
