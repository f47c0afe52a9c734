// `to_bool(value)`: booleans as they are; numbers are true unless zero; null is false; strings spell a
// boolean (`true`/`t`/`yes`/`y`, `false`/`f`/`no`/`n`, any case) or hold an integer (true unless zero).

import { Value, Tag, TRUE, FALSE, tagOf, newBool, intOf, floatOf, bytesPtr, bytesLen } from '../value';
import { parseIntBytes, numberParsed } from '../codec/number';
import { failCoerce, failUnparsable } from './coerce';

export function fn_to_bool(value: Value): Value {
  switch (tagOf(value)) {
    case Tag.Bool: return value;
    case Tag.Int: return newBool(intOf(value) != 0);
    case Tag.Float: return newBool(floatOf(value) != 0);
    case Tag.Null: return FALSE;
    case Tag.Bytes: return parseBool(bytesPtr(value), bytesLen(value));
  }
  return failCoerce(value, 'boolean');
}

function parseBool(ptr: usize, len: usize): Value {
  if (isWord(ptr, len, 'true') || isWord(ptr, len, 't') || isWord(ptr, len, 'yes') || isWord(ptr, len, 'y')) {
    return TRUE;
  }
  if (isWord(ptr, len, 'false') || isWord(ptr, len, 'f') || isWord(ptr, len, 'no') || isWord(ptr, len, 'n')) {
    return FALSE;
  }
  const n = parseIntBytes(ptr, len);
  return numberParsed() ? newBool(n != 0) : failUnparsable('Invalid boolean value', ptr, len, '');
}

/** ASCII case-insensitive equality with a lower-case word. */
function isWord(ptr: usize, len: usize, word: string): bool {
  if (len != <usize>word.length) return false;
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(ptr + i);
    const lower = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
    if (lower != <u8>word.charCodeAt(<i32>i)) return false;
  }
  return true;
}
