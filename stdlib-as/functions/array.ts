// `array(value)`: the value itself when it is an array, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_array(value: Value): Value {
  return expectKinds(value, KindBit.Array) ? value : 0;
}
