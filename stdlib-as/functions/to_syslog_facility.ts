import { Value } from '../value';
import { keywordOf, FACILITIES } from './support/syslog-names';

/** `to_syslog_facility(value)`: the keyword of a facility code from 0 to 23. */
export function fn_to_syslog_facility(value: Value): Value {
  return keywordOf(value, FACILITIES, 'facility code ');
}
