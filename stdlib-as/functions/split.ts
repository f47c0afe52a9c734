import { Value, Tag, tagOf, intOf, bytesPtr, bytesLen, newArray, arrayPush } from '../value';
import { regexSplit } from '../regex';
import { expectKinds } from './support/args';
import { lossy, bytesSlice, nextStringMatch } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `split(value, pattern, limit)`: the pieces of the text between matches of a string or regex; with `limit`,
 * at most that many, the last holding the unsplit rest (a negative limit gives none).
 */
export function fn_split(value: Value, pattern: Value, limit: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Bytes | KindBit.Regex)) return 0;
  if (limit != 0 && !expectKinds(limit, KindBit.Integer)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  const pieces: i64 = limit == 0 ? i64.MAX_VALUE : intOf(limit);
  if (pieces <= 0) return newArray(0);
  if (tagOf(pattern) == Tag.Regex) return regexSplit(pattern, text, pieces);
  const pat = lossy(pattern);
  const patPtr = bytesPtr(pat);
  const patLen = bytesLen(pat);
  const out = newArray(4);
  let rest: usize = 0;
  let matched = false;
  for (let left = pieces; left > 1; left--) {
    const start = nextStringMatch(ptr, len, rest, patPtr, patLen, matched);
    if (start < 0) break;
    arrayPush(out, bytesSlice(text, rest, <usize>start));
    rest = <usize>start + patLen;
    matched = true;
  }
  arrayPush(out, bytesSlice(text, rest, len));
  return out;
}
