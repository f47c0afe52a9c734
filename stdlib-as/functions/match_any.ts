import { Value, newBool, arrayLen, arrayGet } from '../value';
import { regexMatches } from '../regex';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `match_any(value, patterns)`: whether any of the regexes matches the lossy UTF-8 text (VRL's `RegexSet`). */
export function fn_match_any(value: Value, patterns: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(patterns, KindBit.Array)) return 0;
  const n = arrayLen(patterns);
  for (let i: usize = 0; i < n; i++) if (!expectKinds(arrayGet(patterns, i), KindBit.Regex)) return 0;
  const text = lossy(value);
  for (let i: usize = 0; i < n; i++) if (regexMatches(arrayGet(patterns, i), text)) return newBool(true);
  return newBool(false);
}
