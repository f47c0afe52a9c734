import { Value, Tag, tagOf, intOf, bytesPtr, bytesLen, newBytes } from '../value';
import { bufferNew, bufferBytes, bufferToBytes } from '../buffer';
import { regexReplace } from '../regex';
import { expectKinds, KindBit } from './args';
import { lossy, nextStringMatch } from './text';

/**
 * `replace(value, pattern, with, count = -1)`: the first `count` matches (all when negative) of a string or
 * regex replaced. For a regex, `with` may refer to groups (`$1`, `$name`, `${name}`; `$$` is a dollar).
 */
export function fn_replace(value: Value, pattern: Value, withText: Value, count: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Bytes | KindBit.Regex)) return 0;
  if (!expectKinds(withText, KindBit.Bytes)) return 0;
  if (count != 0 && !expectKinds(count, KindBit.Integer)) return 0;
  const text = lossy(value);
  const times: i64 = count == 0 ? -1 : intOf(count);
  if (times == 0) return text;
  const replacement = lossy(withText);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  if (tagOf(pattern) == Tag.Regex) {
    const limit = times < 0 ? -1 : times > i32.MAX_VALUE ? i32.MAX_VALUE : <i32>times;
    // The host wrote `u32 length, bytes` into the arena: the result points at them.
    const reply = regexReplace(pattern, ptr, len, bytesPtr(replacement), bytesLen(replacement), limit);
    return newBytes(reply + 4, <usize>load<u32>(reply));
  }
  const pat = lossy(pattern);
  const patPtr = bytesPtr(pat);
  const patLen = bytesLen(pat);
  const b = bufferNew(len + 16);
  let rest: usize = 0;
  let matched = false;
  for (let left = times; left != 0; left--) {
    const start = nextStringMatch(ptr, len, rest, patPtr, patLen, matched);
    if (start < 0) break;
    bufferBytes(b, ptr + rest, <usize>start - rest);
    bufferBytes(b, bytesPtr(replacement), bytesLen(replacement));
    rest = <usize>start + patLen;
    matched = true;
  }
  if (!matched) return text;
  bufferBytes(b, ptr + rest, len - rest);
  return bufferToBytes(b);
}
