// `to_bool(value)`: booleans as they are; numbers are true unless zero; null is false; strings spell a
// boolean (`true`/`t`/`yes`/`y`, `false`/`f`/`no`/`n`, any case) or hold an integer (true unless zero).

import { Value, Tag, TRUE, FALSE, tagOf, newBool, intOf, floatOf, bytesPtr, bytesLen } from '../value';
import { parseIntBytes, numberParsed } from '../codec/number';
import { equalsWordIgnoreCase } from '../text';
import { failCoerce, failUnparsable } from './support/coerce';

export function fn_to_bool(value: Value): Value {
  switch (tagOf(value)) {
    case Tag.Bool:
      return value;
    case Tag.Int:
      return newBool(intOf(value) != 0);
    case Tag.Float:
      return newBool(floatOf(value) != 0);
    case Tag.Null:
      return FALSE;
    case Tag.Bytes:
      return parseBool(bytesPtr(value), bytesLen(value));
  }
  return failCoerce(value, 'boolean');
}

function parseBool(ptr: usize, len: usize): Value {
  if (isAnyWord(ptr, len, 'true', 't', 'yes', 'y')) return TRUE;
  if (isAnyWord(ptr, len, 'false', 'f', 'no', 'n')) return FALSE;
  const n = parseIntBytes(ptr, len);
  return numberParsed() ? newBool(n != 0) : failUnparsable('Invalid boolean value', ptr, len, '');
}

/** `true`, `t`, `yes`, `y` (or the false ones) in any case. */
function isAnyWord(ptr: usize, len: usize, word: string, initial: string, answer: string, answerInitial: string): bool {
  return (
    equalsWordIgnoreCase(ptr, len, word) ||
    equalsWordIgnoreCase(ptr, len, initial) ||
    equalsWordIgnoreCase(ptr, len, answer) ||
    equalsWordIgnoreCase(ptr, len, answerInitial)
  );
}
