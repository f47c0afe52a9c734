import { Value, bytesPtr, bytesLen } from '../value';
import { expectKinds } from './support/args';
import { lossy, bytesSlice, trimStart, trimEnd } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `strip_whitespace(value)`: Rust's `str::trim` (Unicode White_Space at both ends). */
export function fn_strip_whitespace(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const end = trimEnd(ptr, ptr + bytesLen(text));
  const start = trimStart(ptr, end);
  return bytesSlice(text, start - ptr, end - ptr);
}
