// `is_nullish(value)`: null, `-`, or a string that is empty or only whitespace.

import { Value, Tag, tagOf, newBool, bytesPtr, bytesLen } from '../value';
import { whitespaceLength } from '../text';

export function isNullish(value: Value): bool {
  const tag = tagOf(value);
  if (tag == Tag.Null) return true;
  if (tag != Tag.Bytes) return false;
  let at = bytesPtr(value);
  const end = at + bytesLen(value);
  if (end - at == 1 && load<u8>(at) == 0x2d) return true; // "-"
  while (at < end) {
    const n = whitespaceLength(at, end);
    if (n == 0) return false;
    at += n;
  }
  return true;
}

export function fn_is_nullish(value: Value): Value {
  return newBool(isNullish(value));
}
