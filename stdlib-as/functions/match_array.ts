import { Value, Tag, newBool, tagOf, arrayLen, arrayGet } from '../value';
import { regexMatches } from '../regex';
import { expectKinds, optionalBool } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

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
