// `timestamp(value)`: the value itself when it is a timestamp, else VRL's type error.

import { Value } from '../value';
import { KindBit, expectKinds } from './args';

export function fn_timestamp(value: Value): Value {
  return expectKinds(value, KindBit.Timestamp) ? value : 0;
}
