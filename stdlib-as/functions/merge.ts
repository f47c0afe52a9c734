// `merge(to, from, deep)`: `to` with the fields of `from` added; `from` wins. With `deep`, fields that are
// objects on both sides are merged the same way instead of replaced.

import {
  Value,
  Tag,
  tagOf,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectGet,
  objectSet,
  objectMerged,
  objectMergeInto,
  owned,
} from '../value';
import { expectKinds, optionalBool } from './support/args';
import { mayDescend } from '../depth';
import { KindBit } from '../../abi/wire/kinds';

export function fn_merge(to: Value, from: Value, deep: Value): Value {
  if (!expectKinds(to, KindBit.Object) || !expectKinds(from, KindBit.Object)) return 0;
  const isDeep = optionalBool(deep, false);
  return isDeep < 0 ? 0 : mergeObjects(to, from, isDeep == 1);
}

/**
 * `x = merge(x, from)`: the compiler hands over the object held in `x` (see `push_in_place`), which takes
 * `from`'s fields in place unless something else holds it too. A deep merge copies as `merge` does.
 */
export function merge_in_place(to: Value, from: Value, deep: Value): Value {
  if (!expectKinds(to, KindBit.Object) || !expectKinds(from, KindBit.Object)) return 0;
  const isDeep = optionalBool(deep, false);
  if (isDeep < 0) return 0;
  return isDeep == 1 ? mergeObjects(to, from, true) : objectMergeInto(owned(to), from);
}

/** `from`'s fields over `to`'s, both nested `depth` levels deep (past MAX_VALUE_DEPTH, `to` as it is). */
function mergeObjects(to: Value, from: Value, deep: bool, depth: i32 = 0): Value {
  if (!mayDescend(depth)) return to;
  const merged = objectMerged(to, from);
  if (!deep) return merged;
  // Fields that are objects on both sides are merged in turn.
  for (let i: usize = 0, n = objectLen(from); i < n; i++) {
    const field = objectValue(from, i);
    if (tagOf(field) != Tag.Object) continue;
    const key = objectKeyPtr(from, i);
    const keyLen = objectKeyLen(from, i);
    const existing = objectGet(to, key, keyLen);
    if (existing != 0 && tagOf(existing) == Tag.Object)
      objectSet(merged, key, keyLen, mergeObjects(existing, field, true, depth + 1));
  }
  return merged;
}
