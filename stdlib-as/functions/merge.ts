// `merge(to, from, deep)`: `to` with the fields of `from` added; `from` wins. With `deep`, fields that are
// objects on both sides are merged the same way instead of replaced.

import { Value, Tag, tagOf, cloneShallow, objectLen, objectKeyPtr, objectKeyLen, objectValue, objectGet, objectSet, share } from '../value';
import { KindBit, expectKinds, optionalBool } from './args';
import { mayDescend } from '../depth';

export function fn_merge(to: Value, from: Value, deep: Value): Value {
  if (!expectKinds(to, KindBit.Object) || !expectKinds(from, KindBit.Object)) return 0;
  const isDeep = optionalBool(deep, false);
  return isDeep < 0 ? 0 : mergeObjects(to, from, isDeep == 1);
}

/** `from`'s fields over `to`'s, both nested `depth` levels deep (past MAX_DEPTH, `to` as it is). */
function mergeObjects(to: Value, from: Value, deep: bool, depth: i32 = 0): Value {
  if (!mayDescend(depth)) return to;
  const merged = cloneShallow(to);
  for (let i: usize = 0, n = objectLen(from); i < n; i++) {
    const key = objectKeyPtr(from, i);
    const keyLen = objectKeyLen(from, i);
    let field = objectValue(from, i);
    const existing = deep && tagOf(field) == Tag.Object ? objectGet(merged, key, keyLen) : 0;
    field = existing != 0 && tagOf(existing) == Tag.Object ? mergeObjects(existing, field, true, depth + 1) : share(field);
    objectSet(merged, key, keyLen, field);
  }
  return merged;
}
