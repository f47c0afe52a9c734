// `flatten(value, separator, except)`: nested arrays spliced into one array, or nested objects turned into
// one object whose keys are the key paths joined with `separator` (later paths win on a clash; empty
// objects vanish). Fields whose key is listed in `except` keep their object value.

import {
  Value,
  Tag,
  tagOf,
  alloc,
  bytesPtr,
  bytesLen,
  newArray,
  arrayPush,
  arrayLen,
  arrayGet,
  newObject,
  objectSet,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  share,
  compareBytes,
} from '../value';
import { Buffer, bufferNew, bufferBytes, bufferData, bufferLength, bufferTruncate } from '../buffer';
import { expectKinds } from './support/args';
import { mayDescend } from '../depth';
import { KindBit } from '../../abi/wire/kinds';

const DOT = memory.data<u8>([0x2e]);

export function fn_flatten(value: Value, separator: Value, except: Value): Value {
  if (!expectKinds(value, KindBit.Array | KindBit.Object)) return 0;
  if (separator != 0 && !expectKinds(separator, KindBit.Bytes)) return 0;
  if (except != 0 && !expectKinds(except, KindBit.Array)) return 0;
  if (tagOf(value) == Tag.Array) {
    const flat = newArray(arrayLen(value));
    flattenArray(flat, value);
    return flat;
  }
  const flat = newObject(objectLen(value));
  const sepPtr = separator != 0 ? bytesPtr(separator) : DOT;
  const sepLen = separator != 0 ? bytesLen(separator) : 1;
  flattenObject(flat, value, bufferNew(64), 0, sepPtr, sepLen, except);
  return flat;
}

/** Adds the items of `array` (nested `depth` levels deep; past MAX_VALUE_DEPTH, none) to `flat`. */
function flattenArray(flat: Value, array: Value, depth: i32 = 0): void {
  if (!mayDescend(depth)) return;
  for (let i: usize = 0, n = arrayLen(array); i < n; i++) {
    const item = arrayGet(array, i);
    if (tagOf(item) == Tag.Array) flattenArray(flat, item, depth + 1);
    else arrayPush(flat, share(item));
  }
}

/**
 * Adds the leaves of `object` to `flat`; `path` holds the joined keys of its parents (`depth` of them; past
 * MAX_VALUE_DEPTH, none are added).
 */
function flattenObject(
  flat: Value,
  object: Value,
  path: Buffer,
  depth: u32,
  sepPtr: usize,
  sepLen: usize,
  except: Value,
): void {
  if (!mayDescend(<i32>depth)) return;
  for (let i: usize = 0, n = objectLen(object); i < n; i++) {
    const key = objectKeyPtr(object, i);
    const keyLen = objectKeyLen(object, i);
    const field = objectValue(object, i);
    const nested = tagOf(field) == Tag.Object && !isExcepted(except, key, keyLen);
    const parentLen = bufferLength(path);
    if (depth > 0) bufferBytes(path, sepPtr, sepLen);
    bufferBytes(path, key, keyLen);
    if (nested) {
      flattenObject(flat, field, path, depth + 1, sepPtr, sepLen, except);
    } else if (depth == 0) {
      objectSet(flat, key, keyLen, share(field));
    } else {
      const pathLen = bufferLength(path);
      const joined = alloc(pathLen);
      memory.copy(joined, bufferData(path), pathLen);
      objectSet(flat, joined, pathLen, share(field));
    }
    bufferTruncate(path, parentLen);
  }
}

function isExcepted(except: Value, key: usize, keyLen: usize): bool {
  if (except == 0) return false;
  for (let i: usize = 0, n = arrayLen(except); i < n; i++) {
    const name = arrayGet(except, i);
    if (tagOf(name) == Tag.Bytes && compareBytes(bytesPtr(name), bytesLen(name), key, keyLen) == 0) return true;
  }
  return false;
}
