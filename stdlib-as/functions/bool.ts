// `bool(value)`: the value itself when it is a boolean, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_bool(value: Value): Value {
  return expectKinds(value, KindBit.Boolean) ? value : 0;
}
