// `pop(value)`: a new array without the last item of `value`.

import { Value, cloneShallow, arrayLen, arrayTruncate } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_pop(value: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const popped = cloneShallow(value);
  const len = arrayLen(popped);
  if (len > 0) arrayTruncate(popped, len - 1);
  return popped;
}
