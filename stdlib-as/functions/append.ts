// `append(value, items)`: a new array with the items of `items` after those of `value`.

import { Value, cloneShallow, arrayPush, arrayLen, arrayGet, share } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_append(value: Value, items: Value): Value {
  if (!expectKinds(value, KindBit.Array) || !expectKinds(items, KindBit.Array)) return 0;
  const appended = cloneShallow(value);
  for (let i: usize = 0, n = arrayLen(items); i < n; i++) arrayPush(appended, share(arrayGet(items, i)));
  return appended;
}
