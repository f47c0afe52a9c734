import { Value, Tag, NULL, tagOf, intOf, newInt, bytesPtr, bytesLen } from '../value';
import { regexFind } from '../regex';
import { expectKinds } from './support/args';
import { lossy, findBytes } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `find(value, pattern, from = 0)`: the byte position of the first match at or after byte `from` (a negative
 * `from` counts as 0), or null. A string pattern is searched byte-wise in the raw bytes; a regex runs on the
 * lossy UTF-8 text, from the first code point that starts at or after `from`.
 */
export function fn_find(value: Value, pattern: Value, from: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(pattern, KindBit.Bytes | KindBit.Regex)) return 0;
  if (from != 0 && !expectKinds(from, KindBit.Integer)) return 0;
  const given: i64 = from == 0 ? 0 : intOf(from);
  if (tagOf(pattern) == Tag.Regex) {
    const text = lossy(value);
    const len = bytesLen(text);
    if (given > <i64>len) return NULL;
    let start: usize = given < 0 ? 0 : <usize>given;
    while (start < len && (load<u8>(bytesPtr(text) + start) & 0xc0) == 0x80) start++;
    const at = regexFind(pattern, text, start);
    return at < 0 ? NULL : newInt(<i64>at);
  }
  const len = bytesLen(value);
  if (given > <i64>len) return NULL;
  const at = findBytes(bytesPtr(value), len, given < 0 ? 0 : <usize>given, bytesPtr(pattern), bytesLen(pattern));
  return at < 0 ? NULL : newInt(<i64>at);
}
