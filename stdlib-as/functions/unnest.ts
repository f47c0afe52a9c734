// `unnest(path)` (a code-generator intrinsic: docs/abi.md §8): one copy of the path's root per item of
// the array at the path, with the path holding that item.

import { Value, alloc, share, newArray, arrayLen, arrayGet, arrayPush } from '../value';
import { path_get, path_set } from '../path';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function path_unnest(root: Value, path: usize): Value {
  const items = path_get(root, path);
  if (!expectKinds(items, KindBit.Array)) return 0;
  const n = arrayLen(items);
  const copies = newArray(n);
  const cell = alloc(4);
  for (let i: usize = 0; i < n; i++) {
    // The root is shared, so each write copies the containers along the path and leaves the root alone.
    store<u32>(cell, share(root));
    if (!path_set(cell, path, share(arrayGet(items, i)))) return 0;
    arrayPush(copies, load<u32>(cell));
  }
  return copies;
}
