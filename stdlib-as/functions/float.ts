// `float(value)`: the value itself when it is a float, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_float(value: Value): Value {
  return expectKinds(value, KindBit.Float) ? value : 0;
}
