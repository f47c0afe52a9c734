// `bool(value)`: the value itself when it is a boolean, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_bool(value: Value): Value {
  return expectKinds(value, KindBit.Boolean) ? value : 0;
}
