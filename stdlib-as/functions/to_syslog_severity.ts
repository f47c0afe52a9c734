import { Value, newInt } from '../value';
import { expectKinds } from './support/args';
import { codeOf, failKeyword, SEVERITIES, SEVERITY_ALIASES, SEVERITY_ALIAS_CODES } from './support/syslog-names';
import { KindBit } from '../../abi/wire/kinds';

/** `to_syslog_severity(value)`: the code of a severity keyword (`panic`, `error` and `warn` included). */
export function fn_to_syslog_severity(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const code = codeOf(value, SEVERITIES);
  if (code >= 0) return newInt(code);
  const alias = codeOf(value, SEVERITY_ALIASES);
  if (alias >= 0) return newInt(unchecked(SEVERITY_ALIAS_CODES[alias]));
  return failKeyword('syslog level ', value, ' not valid');
}
