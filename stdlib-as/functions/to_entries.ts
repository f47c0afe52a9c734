// `to_entries(value)`: `[{ "key": …, "value": … }]` for each field of an object (keys as strings) or item of
// an array (keys as indexes), in order.

import {
  Value,
  Tag,
  tagOf,
  newObject,
  objectSet,
  objectLen,
  objectKey,
  objectValue,
  newArray,
  arrayLen,
  arrayGet,
  arrayPush,
  newInt,
  share,
} from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

const KEY = memory.data<u8>([0x6b, 0x65, 0x79]);
const VALUE = memory.data<u8>([0x76, 0x61, 0x6c, 0x75, 0x65]);

export function fn_to_entries(value: Value): Value {
  if (!expectKinds(value, KindBit.Object | KindBit.Array)) return 0;
  const isObject = tagOf(value) == Tag.Object;
  const n = isObject ? objectLen(value) : arrayLen(value);
  const entries = newArray(n);
  for (let i: usize = 0; i < n; i++) {
    const entry = newObject(2);
    objectSet(entry, KEY, 3, isObject ? objectKey(value, i) : newInt(<i64>i));
    objectSet(entry, VALUE, 5, share(isObject ? objectValue(value, i) : arrayGet(value, i)));
    arrayPush(entries, entry);
  }
  return entries;
}
