// parse_json(value, max_depth, lossy): JSON text to a value (serde_json's rules and messages).

import { Value, bytesPtr, bytesLen, intOf, boolOf } from '../value';
import { fail, failWith, failPrefixed } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { parseJsonWith } from '../codec/json';
import { writeInt } from '../codec/number';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_parse_json(value: Value, maxDepth: Value, lossy: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  if (lossy != 0 && !expectKinds(lossy, KindBit.Boolean)) return 0;
  const isLossy = lossy == 0 || boolOf(lossy);
  if (maxDepth == 0) {
    const v = parseJsonWith(bytesPtr(value), bytesLen(value), 0, isLossy);
    return v != 0 ? v : failPrefixed('unable to parse json: ');
  }
  if (!expectKinds(maxDepth, KindBit.Integer)) return 0;
  const depth = intOf(maxDepth);
  // VRL converts to u8 first (Rust's TryFromIntError message), then bounds it by serde_json's limit.
  if (depth < 0 || depth > 255) return failWith('out of range integral type conversion attempted');
  if (depth == 0 || depth > 128) {
    const b = bufferNew(80);
    bufferAscii(b, 'max_depth value should be greater than 0 and less than 128, got ');
    writeInt(b, depth);
    return fail(bufferData(b), bufferLength(b));
  }
  const v = parseJsonWith(bytesPtr(value), bytesLen(value), <i32>depth, isLossy);
  return v != 0 ? v : failPrefixed('unable to read json: ');
}
