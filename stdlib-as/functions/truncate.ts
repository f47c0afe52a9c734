import { Value, intOf, bytesPtr, bytesLen } from '../value';
import { bufferNew, bufferBytes, bufferToBytes } from '../buffer';
import { expectKinds } from './support/args';
import { lossy, bytesSlice, sequenceLength } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `truncate(value, limit, suffix = "")`: the first `limit` characters, then `suffix` when some were cut. */
export function fn_truncate(value: Value, limit: Value, suffix: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(limit, KindBit.Integer)) return 0;
  if (suffix != 0 && !expectKinds(suffix, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  let chars = intOf(limit);
  let cut: usize = 0;
  while (chars > 0 && cut < len) {
    cut += sequenceLength(<u32>load<u8>(ptr + cut));
    chars--;
  }
  if (cut >= len) return text;
  if (suffix == 0 || bytesLen(suffix) == 0) return bytesSlice(text, 0, cut);
  const tail = lossy(suffix);
  const b = bufferNew(cut + bytesLen(tail));
  bufferBytes(b, ptr, cut);
  bufferBytes(b, bytesPtr(tail), bytesLen(tail));
  return bufferToBytes(b);
}
