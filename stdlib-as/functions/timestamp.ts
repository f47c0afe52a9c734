// `timestamp(value)`: the value itself when it is a timestamp, else VRL's type error.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_timestamp(value: Value): Value {
  return expectKinds(value, KindBit.Timestamp) ? value : 0;
}
