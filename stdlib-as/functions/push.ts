// `push(value, item)`: a new array with `item` after the items of `value`.

import { Value, cloneShallow, arrayPush, owned } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_push(value: Value, item: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const pushed = cloneShallow(value);
  arrayPush(pushed, item);
  return pushed;
}

/**
 * `x = push(x, item)`: the compiler hands over the array held in the variable `x` (not marked shared by the
 * read), which it replaces with the result, so `item` goes after its items in place unless something else
 * holds the array too. A loop building an array this way copied it on every turn (quadratic in time and, as
 * a run's arena frees nothing until the event is done, in memory).
 */
export function push_in_place(value: Value, item: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const pushed = owned(value);
  arrayPush(pushed, item);
  return pushed;
}
