import { Value, newInt } from '../value';
import { expectKinds } from './support/args';
import { codeOf, failKeyword, FACILITIES } from './support/syslog-names';
import { KindBit } from '../../abi/wire/kinds';

/** `to_syslog_facility_code(value)`: the code of a facility keyword. */
export function fn_to_syslog_facility_code(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const code = codeOf(value, FACILITIES);
  return code < 0 ? failKeyword("syslog facility '", value, "' not valid") : newInt(code);
}
