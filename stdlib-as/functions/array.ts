// `array(value)`: the value itself when it is an array, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_array(value: Value): Value {
  return expectKinds(value, KindBit.Array) ? value : 0;
}
