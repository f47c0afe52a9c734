// `compact(value, recursive, null, string, object, array, nullish)`: the array or object without its empty
// items, where the options say what counts as empty; with `recursive`, nested collections are compacted
// first (so a collection that only held empty values goes too).

import {
  Value,
  Tag,
  tagOf,
  bytesLen,
  newArray,
  arrayPush,
  arrayLen,
  arrayGet,
  newObject,
  objectSet,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  share,
} from '../value';
import { expectKinds, optionalBool } from './support/args';
import { isNullish } from './is_nullish';
import { KindBit } from '../../abi/wire/kinds';

const enum Option {
  Recursive = 1,
  Null = 2,
  String = 4,
  Object = 8,
  Array = 16,
  Nullish = 32,
}

/** Option bits in parameter order, read one by one so the first bad argument is the one reported. */
let options: u32 = 0;

function readOption(arg: Value, fallback: bool, bit: Option): bool {
  const on = optionalBool(arg, fallback);
  if (on > 0) options |= bit;
  return on >= 0;
}

export function fn_compact(
  value: Value,
  recursive: Value,
  removeNull: Value,
  removeString: Value,
  removeObject: Value,
  removeArray: Value,
  nullish: Value,
): Value {
  if (!expectKinds(value, KindBit.Array | KindBit.Object)) return 0;
  options = 0;
  const valid =
    readOption(recursive, true, Option.Recursive) &&
    readOption(removeNull, true, Option.Null) &&
    readOption(removeString, true, Option.String) &&
    readOption(removeObject, true, Option.Object) &&
    readOption(removeArray, true, Option.Array) &&
    readOption(nullish, false, Option.Nullish);
  return valid ? compactCollection(value) : 0;
}

function compactCollection(value: Value): Value {
  if (tagOf(value) == Tag.Array) {
    const n = arrayLen(value);
    const compacted = newArray(n);
    for (let i: usize = 0; i < n; i++) {
      const item = compactItem(arrayGet(value, i));
      if (!isEmpty(item)) arrayPush(compacted, item);
    }
    return compacted;
  }
  const n = objectLen(value);
  const compacted = newObject(n);
  for (let i: usize = 0; i < n; i++) {
    const field = compactItem(objectValue(value, i));
    if (!isEmpty(field)) objectSet(compacted, objectKeyPtr(value, i), objectKeyLen(value, i), field);
  }
  return compacted;
}

function compactItem(item: Value): Value {
  const tag = tagOf(item);
  if (options & Option.Recursive && (tag == Tag.Array || tag == Tag.Object)) return compactCollection(item);
  return share(item);
}

function isEmpty(item: Value): bool {
  if (options & Option.Nullish && isNullish(item)) return true;
  switch (tagOf(item)) {
    case Tag.Null:
      return (options & Option.Null) != 0;
    case Tag.Bytes:
      return (options & Option.String) != 0 && bytesLen(item) == 0;
    case Tag.Object:
      return (options & Option.Object) != 0 && objectLen(item) == 0;
    case Tag.Array:
      return (options & Option.Array) != 0 && arrayLen(item) == 0;
  }
  return false;
}
