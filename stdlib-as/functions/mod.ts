import { Value } from '../value';
import { op_rem } from '../ops';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** `mod(value, modulus)`: VRL's `try_rem`, the same as the `%` operator. */
export function fn_mod(value: Value, modulus: Value): Value {
  if (!expectKinds(value, KindBit.Integer | KindBit.Float)) return 0;
  if (!expectKinds(modulus, KindBit.Integer | KindBit.Float)) return 0;
  return op_rem(value, modulus);
}
