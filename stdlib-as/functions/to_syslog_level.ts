import { Value } from '../value';
import { keywordOf, SEVERITIES } from './support/syslog-names';

/** `to_syslog_level(value)`: the keyword of a severity code from 0 to 7. */
export function fn_to_syslog_level(value: Value): Value {
  return keywordOf(value, SEVERITIES, 'severity level ');
}
