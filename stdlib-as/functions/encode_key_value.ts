// `encode_key_value(value, fields_ordering = [], key_value_delimiter = "=", field_delimiter = " ",
// flatten_boolean = false)`: the object as `key=value` text (stdlib-as/codec/key-value.ts).

import { Value, Tag, tagOf, bytesPtr, bytesLen, newArray, arrayLen, arrayGet, arrayPush, objectLen } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength, bufferToBytes } from '../buffer';
import { writeInt } from '../codec/number';
import { writeKeyValue, EQUALS, SPACE } from '../codec/key-value';
import { expectKinds, optionalBool } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';
import { kindBitOf, kindName } from '../kind-names';

export function fn_encode_key_value(
  value: Value,
  fieldsOrdering: Value,
  keyValueDelimiter: Value,
  fieldDelimiter: Value,
  flattenBoolean: Value,
): Value {
  if (!expectKinds(value, KindBit.Object)) return 0;
  if (keyValueDelimiter != 0 && !expectKinds(keyValueDelimiter, KindBit.Bytes)) return 0;
  if (fieldDelimiter != 0 && !expectKinds(fieldDelimiter, KindBit.Bytes)) return 0;
  const flatten = optionalBool(flattenBoolean, false);
  if (flatten < 0) return 0;
  const kv = keyValueDelimiter != 0 ? lossy(keyValueDelimiter) : 0;
  const field = fieldDelimiter != 0 ? lossy(fieldDelimiter) : 0;
  return encodeKeyValue(
    value,
    fieldsOrdering,
    kv != 0 ? bytesPtr(kv) : EQUALS,
    kv != 0 ? bytesLen(kv) : 1,
    field != 0 ? bytesPtr(field) : SPACE,
    field != 0 ? bytesLen(field) : 1,
    flatten == 1,
  );
}

/** The text, or 0 (message pending) when `fieldsOrdering` (an array, or 0) holds a non-string. */
export function encodeKeyValue(
  value: Value,
  fieldsOrdering: Value,
  kvPtr: usize,
  kvLen: usize,
  fieldPtr: usize,
  fieldLen: usize,
  flatten: bool,
): Value {
  let ordering: Value = 0;
  if (fieldsOrdering != 0) {
    if (!expectKinds(fieldsOrdering, KindBit.Array)) return 0;
    const n = arrayLen(fieldsOrdering);
    ordering = newArray(n);
    for (let i: usize = 0; i < n; i++) {
      const name = arrayGet(fieldsOrdering, i);
      if (tagOf(name) != Tag.Bytes) return failFieldType(i, name);
      arrayPush(ordering, lossy(name));
    }
  }
  const out = bufferNew(objectLen(value) * 16 + 16);
  writeKeyValue(out, value, ordering, kvPtr, kvLen, fieldPtr, fieldLen, flatten);
  return bufferToBytes(out);
}

function failFieldType(index: usize, name: Value): Value {
  const b = bufferNew(64);
  bufferAscii(b, 'invalid field value type at index ');
  writeInt(b, <i64>index);
  bufferAscii(b, ': expected string, got ');
  bufferAscii(b, kindName(kindBitOf(name)));
  return fail(bufferData(b), bufferLength(b));
}
