// `unflatten(value, separator = ".", recursive = true)`: keys split at the separator become nested objects
// (VRL's algorithm): keys are grouped by their first part; a group of one key keeps its value (nested by the
// rest of its key), a larger group becomes the unflattened object of the rests, and a key without a rest is
// dropped from such a group (`{"a": 1, "a.b": 2}` → `{"a": {"b": 2}}`). With `recursive`, object values are
// unflattened too. An empty separator splits nothing.

import {
  Value,
  Tag,
  NULL,
  tagOf,
  bytesPtr,
  bytesLen,
  newBytes,
  newObject,
  objectSet,
  objectFind,
  objectInsertAt,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectSetValueAt,
  newArray,
  arrayLen,
  arrayGet,
  arrayPush,
  share,
} from '../value';
import { expectKinds, optionalBool } from './support/args';
import { findBytes } from './support/text';
import { mayDescend } from '../depth';
import { KindBit } from '../../abi/wire/kinds';

const DOT = memory.data<u8>([0x2e]);

export function fn_unflatten(value: Value, separator: Value, recursive: Value): Value {
  if (!expectKinds(value, KindBit.Object)) return 0;
  if (separator != 0 && !expectKinds(separator, KindBit.Bytes)) return 0;
  const deep = optionalBool(recursive, true);
  if (deep < 0) return 0;
  if (separator == 0) return unflattenObject(value, DOT, 1, deep == 1);
  if (bytesLen(separator) == 0) return value;
  return unflattenObject(value, bytesPtr(separator), bytesLen(separator), deep == 1);
}

function unflattenValue(v: Value, sep: usize, sepLen: usize, deep: bool, depth: i32): Value {
  return deep && tagOf(v) == Tag.Object ? unflattenObject(v, sep, sepLen, true, depth) : share(v);
}

/**
 * Groups: first key part → array of (rest of the key or null, value) pairs, in key order. `o` is nested
 * `depth` levels deep in the result; past MAX_VALUE_DEPTH it stays as it is.
 */
function unflattenObject(o: Value, sep: usize, sepLen: usize, deep: bool, depth: i32 = 0): Value {
  if (!mayDescend(depth)) return o;
  const groups = newObject(objectLen(o));
  for (let i: usize = 0, n = objectLen(o); i < n; i++) {
    const key = objectKeyPtr(o, i);
    const keyLen = objectKeyLen(o, i);
    const split = findBytes(key, keyLen, 0, sep, sepLen);
    const firstLen: usize = split < 0 ? keyLen : <usize>split;
    const rest: Value = split < 0 ? NULL : newBytes(key + firstLen + sepLen, keyLen - firstLen - sepLen);
    let at = objectFind(groups, key, firstLen);
    if (at < 0) {
      at = -at - 1;
      objectInsertAt(groups, <usize>at, key, firstLen, newArray(2));
    }
    const pairs = objectValue(groups, <usize>at);
    arrayPush(pairs, rest);
    arrayPush(pairs, objectValue(o, i));
  }
  // Each group's pairs are replaced by the group's value, in place.
  for (let g: usize = 0, n = objectLen(groups); g < n; g++) {
    const pairs = objectValue(groups, g);
    if (arrayLen(pairs) == 2) {
      const rest = arrayGet(pairs, 0);
      const v = arrayGet(pairs, 1);
      objectSetValueAt(
        groups,
        g,
        rest == NULL ? unflattenValue(v, sep, sepLen, deep, depth + 1) : nest(rest, v, sep, sepLen, deep, depth + 1),
      );
      continue;
    }
    const rests = newObject(arrayLen(pairs) >> 1);
    for (let p: usize = 0, m = arrayLen(pairs); p < m; p += 2) {
      const rest = arrayGet(pairs, p);
      if (rest != NULL) objectSet(rests, bytesPtr(rest), bytesLen(rest), arrayGet(pairs, p + 1));
    }
    objectSetValueAt(groups, g, unflattenObject(rests, sep, sepLen, deep, depth + 1));
  }
  return groups;
}

/** `v` under the nested objects the parts of `rest` name, from `depth` on (past MAX_VALUE_DEPTH, `v` as it is). */
function nest(rest: Value, v: Value, sep: usize, sepLen: usize, deep: bool, depth: i32): Value {
  if (!mayDescend(depth)) return v;
  const key = bytesPtr(rest);
  const keyLen = bytesLen(rest);
  const split = findBytes(key, keyLen, 0, sep, sepLen);
  const object = newObject(1);
  if (split < 0) {
    objectSet(object, key, keyLen, unflattenValue(v, sep, sepLen, deep, depth + 1));
  } else {
    const first = <usize>split;
    objectSet(
      object,
      key,
      first,
      nest(newBytes(key + first + sepLen, keyLen - first - sepLen), v, sep, sepLen, deep, depth + 1),
    );
  }
  return object;
}
