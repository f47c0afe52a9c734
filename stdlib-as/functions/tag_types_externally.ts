// `tag_types_externally(value)`: every scalar wrapped in an object naming its kind (`{ "integer": 1 }`),
// inside arrays and objects too; null stays null.

import {
  Value, Tag, tagOf, newObject, objectSet, objectLen, objectKeyPtr, objectKeyLen, objectValue, newArray,
  arrayLen, arrayGet, arrayPush, share, bytesPtr, bytesLen,
} from '../value';
import { textBytes } from '../error';

/** The tag of each kind, indexed by `Tag` (null, arrays and objects have none). */
const TAG_NAMES: StaticArray<string> = ['', 'boolean', 'integer', 'float', 'string', 'timestamp', 'regex', '', ''];

export function fn_tag_types_externally(value: Value): Value {
  const tag = tagOf(value);
  if (tag == Tag.Null) return value;
  if (tag == Tag.Array) {
    const n = arrayLen(value);
    const tagged = newArray(n);
    for (let i: usize = 0; i < n; i++) arrayPush(tagged, fn_tag_types_externally(arrayGet(value, i)));
    return tagged;
  }
  if (tag == Tag.Object) {
    const n = objectLen(value);
    const tagged = newObject(n);
    for (let i: usize = 0; i < n; i++) {
      objectSet(tagged, objectKeyPtr(value, i), objectKeyLen(value, i), fn_tag_types_externally(objectValue(value, i)));
    }
    return tagged;
  }
  const name = textBytes(unchecked(TAG_NAMES[<i32>tag]));
  const wrapped = newObject(1);
  objectSet(wrapped, bytesPtr(name), bytesLen(name), share(value));
  return wrapped;
}
