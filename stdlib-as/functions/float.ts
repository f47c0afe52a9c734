// `float(value)`: the value itself when it is a float, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_float(value: Value): Value {
  return expectKinds(value, KindBit.Float) ? value : 0;
}
