// `object_from_array(values, keys)`: an object from `[key, value]` pairs, or from `keys` zipped with
// `values`; a null key leaves its value out, a missing value is null.

import { Value, Tag, NULL, tagOf, newObject, objectSet, arrayLen, arrayGet, share, bytesPtr, bytesLen } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_object_from_array(values: Value, keys: Value): Value {
  if (!expectKinds(values, KindBit.Array)) return 0;
  if (keys != 0 && !expectKinds(keys, KindBit.Array)) return 0;
  const object = newObject(arrayLen(values));
  if (keys != 0) {
    const n = arrayLen(keys) < arrayLen(values) ? arrayLen(keys) : arrayLen(values);
    for (let i: usize = 0; i < n; i++) {
      if (!setEntry(object, arrayGet(keys, i), arrayGet(values, i))) return 0;
    }
    return object;
  }
  for (let i: usize = 0, n = arrayLen(values); i < n; i++) {
    const pair = arrayGet(values, i);
    if (tagOf(pair) != Tag.Array)
      return failWith('object_from_array in single-argument mode must be passed an array of arrays');
    if (arrayLen(pair) == 0) continue;
    if (!setEntry(object, arrayGet(pair, 0), arrayLen(pair) > 1 ? arrayGet(pair, 1) : NULL)) return 0;
  }
  return object;
}

/** Sets `key` (a string, or null to skip) to `value`; false (message pending) for any other key. */
function setEntry(object: Value, key: Value, value: Value): bool {
  const tag = tagOf(key);
  if (tag == Tag.Null) return true;
  if (tag != Tag.Bytes) {
    failWith('object keys must be strings');
    return false;
  }
  const text = lossy(key);
  objectSet(object, bytesPtr(text), bytesLen(text), share(value));
  return true;
}
