// `object(value)`: the value itself when it is an object, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_object(value: Value): Value {
  return expectKinds(value, KindBit.Object) ? value : 0;
}
