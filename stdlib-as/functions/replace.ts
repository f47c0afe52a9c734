import { Value, Tag, tagOf, intOf, bytesPtr, bytesLen } from '../value';
import { bufferNew, bufferBytes, bufferToBytes } from '../buffer';
import { regexReplace } from '../regex';
import { expectKinds } from './support/args';
import { lossy, nextStringMatch } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

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
    const b = bufferNew(len + 16);
    return regexReplace(b, pattern, text, replacement, times) ? bufferToBytes(b) : text;
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
