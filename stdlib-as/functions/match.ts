import { Value, newBool } from '../value';
import { regexMatches } from '../regex';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `match(value, pattern)`: whether the regex matches anywhere in the lossy UTF-8 text. */
export function fn_match(value: Value, pattern: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Regex)) return 0;
  return newBool(regexMatches(pattern, lossy(value)));
}
