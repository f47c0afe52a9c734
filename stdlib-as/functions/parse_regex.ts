import { Value } from '../value';
import { regexParse, regexParseAll } from '../regex';
import { expectKinds, KindBit, optionalBool } from './args';
import { lossy } from './text';

/**
 * `parse_regex(value, pattern, numeric_groups = false)`: the first match's named groups (null when they did
 * not take part), and with `numeric_groups` the participating groups numbered from 0 in order.
 */
export function fn_parse_regex(value: Value, pattern: Value, numericGroups: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Regex)) return 0;
  const numeric = optionalBool(numericGroups, false);
  if (numeric < 0) return 0;
  return regexParse(pattern, lossy(value), numeric == 1);
}

/** `parse_regex_all(value, pattern, numeric_groups = false)`: parse_regex's object for every match, in order. */
export function fn_parse_regex_all(value: Value, pattern: Value, numericGroups: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Regex)) return 0;
  const numeric = optionalBool(numericGroups, false);
  if (numeric < 0) return 0;
  return regexParseAll(pattern, lossy(value), numeric == 1);
}
