// `int(value)`: the value itself when it is an integer, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_int(value: Value): Value {
  return expectKinds(value, KindBit.Integer) ? value : 0;
}
