// `int(value)`: the value itself when it is an integer, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_int(value: Value): Value {
  return expectKinds(value, KindBit.Integer) ? value : 0;
}
