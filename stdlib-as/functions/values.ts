// `values(value)`: an object's field values, in key order, as an array.

import { Value, newArray, arrayPush, objectLen, objectValue, share } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_values(value: Value): Value {
  if (!expectKinds(value, KindBit.Object)) return 0;
  const n = objectLen(value);
  const values = newArray(n);
  for (let i: usize = 0; i < n; i++) arrayPush(values, share(objectValue(value, i)));
  return values;
}
