import { Value } from '../value';
import { regexParseAll } from '../regex';
import { expectKinds, optionalBool } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `parse_regex_all(value, pattern, numeric_groups = false)`: parse_regex's object for every match, in order. */
export function fn_parse_regex_all(value: Value, pattern: Value, numericGroups: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Regex)) return 0;
  const numeric = optionalBool(numericGroups, false);
  if (numeric < 0) return 0;
  return regexParseAll(pattern, lossy(value), numeric == 1);
}
