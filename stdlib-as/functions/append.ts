// `append(value, items)`: a new array with the items of `items` after those of `value`.

import { Value, cloneShallow, arrayPush, arrayLen, arrayGet, owned, share } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_append(value: Value, items: Value): Value {
  if (!expectKinds(value, KindBit.Array) || !expectKinds(items, KindBit.Array)) return 0;
  return appendItems(cloneShallow(value), items);
}

/** `x = append(x, items)`: as `push_in_place`, the array held in `x` grows in place unless shared. */
export function append_in_place(value: Value, items: Value): Value {
  if (!expectKinds(value, KindBit.Array) || !expectKinds(items, KindBit.Array)) return 0;
  return appendItems(owned(value), items);
}

function appendItems(appended: Value, items: Value): Value {
  for (let i: usize = 0, n = arrayLen(items); i < n; i++) arrayPush(appended, share(arrayGet(items, i)));
  return appended;
}
