// `tag_types_externally(value)`: every scalar wrapped in an object naming its kind (`{ "integer": 1 }`),
// inside arrays and objects too; null stays null.

import {
  Value,
  Tag,
  tagOf,
  newObject,
  objectSet,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  newArray,
  arrayLen,
  arrayGet,
  arrayPush,
  share,
  bytesPtr,
  bytesLen,
} from '../value';
import { textBytes } from '../error';
import { mayDescend } from '../depth';

/** The tag of each kind, indexed by `Tag` (null, arrays and objects have none). */
const TAG_NAMES: StaticArray<string> = ['', 'boolean', 'integer', 'float', 'string', 'timestamp', 'regex', '', ''];

export function fn_tag_types_externally(value: Value): Value {
  return tagged(value, 0);
}

/** `value`, nested `depth` levels deep, with its scalars tagged (past MAX_VALUE_DEPTH, as it is). */
function tagged(value: Value, depth: i32): Value {
  const tag = tagOf(value);
  if (tag == Tag.Null || (tag >= Tag.Array && !mayDescend(depth))) return value;
  if (tag == Tag.Array) {
    const n = arrayLen(value);
    const items = newArray(n);
    for (let i: usize = 0; i < n; i++) arrayPush(items, tagged(arrayGet(value, i), depth + 1));
    return items;
  }
  if (tag == Tag.Object) {
    const n = objectLen(value);
    const fields = newObject(n);
    for (let i: usize = 0; i < n; i++) {
      objectSet(fields, objectKeyPtr(value, i), objectKeyLen(value, i), tagged(objectValue(value, i), depth + 1));
    }
    return fields;
  }
  const name = textBytes(unchecked(TAG_NAMES[<i32>tag]));
  const wrapped = newObject(1);
  objectSet(wrapped, bytesPtr(name), bytesLen(name), share(value));
  return wrapped;
}
