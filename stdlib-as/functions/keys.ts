// `keys(value)`: an object's top-level keys, in order, as an array of strings.

import { Value, newArray, arrayPush, newBytes, objectLen, objectKeyPtr, objectKeyLen } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_keys(value: Value): Value {
  if (!expectKinds(value, KindBit.Object)) return 0;
  const n = objectLen(value);
  const keys = newArray(n);
  // Key bytes are immutable, so the strings can point at them.
  for (let i: usize = 0; i < n; i++) arrayPush(keys, newBytes(objectKeyPtr(value, i), objectKeyLen(value, i)));
  return keys;
}
