// The access and error log parsers in the stdlib (`parse_common_log`, `parse_apache_log`, `parse_nginx_log`;
// abi/access-log.ts has their formats): the compiler calls `access_log_parse` where it knows the format and
// the timestamp format, and the JS function where this gives 0 — no match, a field that does not read
// (VRL's errors and their messages are the JS function's), a float field, a time the strftime program
// leaves to JS. So a line parses here exactly when the JS function would give the same object.

import {
  Value,
  Tag,
  tagOf,
  bytesPtr,
  bytesLen,
  bytesSlice,
  newObject,
  objectInsertAt,
  objectFind,
  objectValue,
  intOf,
  newInt,
  regexProgram,
  newFloat,
} from './value';
import { regexSearch, slotScratch, programNames, FIRST_SEARCH_BITS } from './regex-vm';
import { numberParsed, parseFloatBytes, parseIntBytes } from './codec/number';
import { strftime_parse } from './strftime';
import { lossy } from './functions/support/text';
import { LogFieldType } from '../abi/wire/access-log';

/**
 * `value` matched by the format's regex `re`: an object of its named groups that took part, typed by
 * `types` (field name → LogFieldType), the timestamp read with the strftime parse program
 * `timestampProgram`; or 0 for the JS function to answer.
 */
export function access_log_parse(value: Value, re: Value, types: Value, timestampProgram: Value): Value {
  if (tagOf(value) != Tag.Bytes) return 0;
  const text = lossy(value);
  const program = regexProgram(re);
  const slots = slotScratch(program);
  if (!regexSearch(program, bytesPtr(text), bytesLen(text), 0, slots, FIRST_SEARCH_BITS)) return 0;
  const names = programNames(program);
  const count = <usize>load<u32>(names);
  const fields = newObject(count);
  let entry = names + 4;
  let at: usize = 0;
  for (let i: usize = 0; i < count; i++) {
    const group = <usize>load<u32>(entry);
    const key = entry + 8;
    const keyLen = <usize>load<u32>(entry, 4);
    entry += 8 + ((keyLen + 3) & ~3);
    const start = load<i32>(slots + (group << 3));
    if (start < 0) continue;
    let field = bytesSlice(text, <usize>start, <usize>load<i32>(slots + (group << 3), 4));
    const typed = objectFind(types, key, keyLen);
    if (typed >= 0) {
      const type = <i32>intOf(objectValue(types, typed));
      if (type == LogFieldType.Integer) {
        const n = parseIntBytes(bytesPtr(field), bytesLen(field));
        if (!numberParsed()) return 0;
        field = newInt(n);
      } else if (type == LogFieldType.Timestamp) {
        field = strftime_parse(field, timestampProgram, 0);
        if (field == 0) return 0;
      } else {
        // Digits with a point (the formats' `\d+\.\d+`) read as JS's `Number` reads them; anything else
        // (signs, spaces, exponents, infinities) is the JS function's to word.
        if (!plainDecimal(bytesPtr(field), bytesLen(field))) return 0;
        const f = parseFloatBytes(bytesPtr(field), bytesLen(field));
        if (!numberParsed() || !isFinite(f)) return 0;
        field = newFloat(f);
      }
    }
    // The program lists the names sorted: append in order.
    objectInsertAt(fields, at++, key, keyLen, field);
  }
  return fields;
}

/** Whether the bytes are digits with at most one point and at least one digit. */
function plainDecimal(ptr: usize, len: usize): bool {
  let digits = false;
  let point = false;
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(ptr + i);
    if (c >= 0x30 && c <= 0x39) digits = true;
    else if (c == 0x2e && !point) point = true;
    else return false;
  }
  return digits;
}
