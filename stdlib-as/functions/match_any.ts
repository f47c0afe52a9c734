import { Value, Tag, newBool, tagOf, arrayLen, arrayGet } from '../value';
import { regexMatches } from '../regex';
import { expectKinds, KindBit, optionalBool } from './args';
import { lossy } from './text';

/** `match_any(value, patterns)`: whether any of the regexes matches the lossy UTF-8 text (VRL's `RegexSet`). */
export function fn_match_any(value: Value, patterns: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(patterns, KindBit.Array)) return 0;
  const n = arrayLen(patterns);
  for (let i: usize = 0; i < n; i++) if (!expectKinds(arrayGet(patterns, i), KindBit.Regex)) return 0;
  const text = lossy(value);
  for (let i: usize = 0; i < n; i++) if (regexMatches(arrayGet(patterns, i), text)) return newBool(true);
  return newBool(false);
}

/**
 * `match_array(value, pattern, all = false)`: whether any (with `all`, every) item matches the regex; items
 * that are not strings never match.
 */
export function fn_match_array(value: Value, pattern: Value, all: Value): Value {
  if (!expectKinds(pattern, KindBit.Regex) || !expectKinds(value, KindBit.Array)) return 0;
  const every = optionalBool(all, false);
  if (every < 0) return 0;
  for (let i: usize = 0, n = arrayLen(value); i < n; i++) {
    const item = arrayGet(value, i);
    const matches = tagOf(item) == Tag.Bytes && regexMatches(pattern, lossy(item));
    // Any: the first match decides; every: the first item that does not match.
    if (matches != (every == 1)) return newBool(matches);
  }
  return newBool(every == 1);
}
