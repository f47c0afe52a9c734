// `is_json(value, variant)`: whether the string is one JSON document, optionally of the given variant
// (`object`, `array`, `string`, `number`, `bool` or `null`).

import { Value, Tag, tagOf, newBool, FALSE, bytesPtr, bytesLen } from '../value';
import { parseJson } from '../codec/json';
import { expectKinds } from './support/args';
import { equalsAscii } from '../text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_is_json(value: Value, variant: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  if (variant != 0 && !expectKinds(variant, KindBit.Bytes)) return 0;
  const parsed = parseJson(bytesPtr(value), bytesLen(value));
  if (parsed == 0) return FALSE;
  return variant == 0 ? newBool(true) : newBool(isVariant(tagOf(parsed), bytesPtr(variant), bytesLen(variant)));
}

function isVariant(tag: Tag, name: usize, nameLen: usize): bool {
  switch (tag) {
    case Tag.Object:
      return equalsAscii(name, nameLen, 'object');
    case Tag.Array:
      return equalsAscii(name, nameLen, 'array');
    case Tag.Bytes:
      return equalsAscii(name, nameLen, 'string');
    case Tag.Int:
    case Tag.Float:
      return equalsAscii(name, nameLen, 'number');
    case Tag.Bool:
      return equalsAscii(name, nameLen, 'bool');
    case Tag.Null:
      return equalsAscii(name, nameLen, 'null');
  }
  return false;
}
