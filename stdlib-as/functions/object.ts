// `object(value)`: the value itself when it is an object, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_object(value: Value): Value {
  return expectKinds(value, KindBit.Object) ? value : 0;
}
