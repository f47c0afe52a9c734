// `push(value, item)`: a new array with `item` after the items of `value`.

import { Value, cloneShallow, arrayPush } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_push(value: Value, item: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const pushed = cloneShallow(value);
  arrayPush(pushed, item);
  return pushed;
}
