// `string(value)`: the value itself when it is a string, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_string(value: Value): Value {
  return expectKinds(value, KindBit.Bytes) ? value : 0;
}
