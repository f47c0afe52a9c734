// `string(value)`: the value itself when it is a string, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_string(value: Value): Value {
  return expectKinds(value, KindBit.Bytes) ? value : 0;
}
