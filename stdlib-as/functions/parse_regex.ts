import { Value } from '../value';
import { regexParse } from '../regex';
import { expectKinds, optionalBool } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

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
