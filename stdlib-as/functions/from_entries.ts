// `from_entries(value)`: the object of an array of `{ "key": …, "value": … }` entries (to_entries'
// inverse). A key that is not a string is written as text (`to_string_lossy`); entries that are not
// objects or have no key are left out, a missing value is null.

import {
  Value,
  Tag,
  NULL,
  tagOf,
  newObject,
  objectSet,
  objectGet,
  arrayLen,
  arrayGet,
  share,
  bytesPtr,
  bytesLen,
} from '../value';
import { bufferNew, bufferData, bufferLength } from '../buffer';
import { writeText } from '../codec/key-value';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

const KEY = memory.data<u8>([0x6b, 0x65, 0x79]);
const VALUE = memory.data<u8>([0x76, 0x61, 0x6c, 0x75, 0x65]);

export function fn_from_entries(value: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const object = newObject(arrayLen(value));
  for (let i: usize = 0, n = arrayLen(value); i < n; i++) {
    const entry = arrayGet(value, i);
    if (tagOf(entry) != Tag.Object) continue;
    const key = objectGet(entry, KEY, 3);
    if (key == 0) continue;
    const item = objectGet(entry, VALUE, 5);
    const data = item == 0 ? NULL : share(item);
    if (tagOf(key) == Tag.Bytes) {
      const text = lossy(key);
      objectSet(object, bytesPtr(text), bytesLen(text), data);
    } else {
      const text = bufferNew(24);
      writeText(text, key, false);
      objectSet(object, bufferData(text), bufferLength(text), data);
    }
  }
  return object;
}
