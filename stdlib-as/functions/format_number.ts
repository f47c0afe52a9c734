// `format_number(value, scale, decimal_separator = ".", grouping_separator)`: VRL writes the number as a
// `rust_decimal::Decimal` (a float's shortest digits, never an exponent), truncates or zero-pads the
// fraction to `scale` digits, then inserts the grouping separator into the integral part with its own
// algorithm (kept as is: `-123456` groups as `-,123,456`, and leading separators are trimmed).

import { Value, Tag, tagOf, intOf, floatOf, bytesPtr, bytesLen } from '../value';
import { failWith } from '../error';
import {
  Buffer,
  bufferNew,
  bufferBytes,
  bufferByte,
  bufferData,
  bufferLength,
  bufferTruncate,
  bufferToBytes,
} from '../buffer';
import { writeInt, writeRustFloat } from '../codec/number';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** Longest fraction `scale` may ask for (a Decimal has at most 28 digits; this only bounds memory). */
const MAX_SCALE: i64 = 65535;

export function fn_format_number(value: Value, scale: Value, decimalSeparator: Value, groupingSeparator: Value): Value {
  if (!expectKinds(value, KindBit.Integer | KindBit.Float)) return 0;
  if (scale != 0 && !expectKinds(scale, KindBit.Integer)) return 0;
  if (decimalSeparator != 0 && !expectKinds(decimalSeparator, KindBit.Bytes)) return 0;
  if (groupingSeparator != 0 && !expectKinds(groupingSeparator, KindBit.Bytes)) return 0;
  if (scale != 0 && (intOf(scale) < 0 || intOf(scale) > MAX_SCALE)) {
    return failWith('scale must be between 0 and 65535');
  }
  const digits = bufferNew(32);
  if (tagOf(value) == Tag.Int) writeInt(digits, intOf(value));
  else if (floatOf(value) == 0) bufferByte(digits, 0x30);
  else writeRustFloat(digits, floatOf(value));
  const text = bufferData(digits);
  const textLen = bufferLength(digits);
  let integralLen: usize = 0;
  while (integralLen < textLen && load<u8>(text + integralLen) != 0x2e) integralLen++;
  const hasFraction = integralLen < textLen;
  const fraction = text + integralLen + 1;
  const fractionLen: usize = hasFraction ? textLen - integralLen - 1 : 0;

  const out = bufferNew(textLen + 16);
  if (groupingSeparator == 0) bufferBytes(out, text, integralLen);
  else writeGrouped(out, text, integralLen, bytesPtr(groupingSeparator), bytesLen(groupingSeparator));
  const wanted: i64 = scale == 0 ? -1 : intOf(scale);
  if (wanted == 0 || (wanted < 0 && !hasFraction)) return bufferToBytes(out);
  if (decimalSeparator == 0) bufferByte(out, 0x2e);
  else bufferBytes(out, bytesPtr(decimalSeparator), bytesLen(decimalSeparator));
  if (wanted < 0) {
    bufferBytes(out, fraction, fractionLen);
  } else if (<usize>wanted <= fractionLen) {
    bufferBytes(out, fraction, <usize>wanted);
  } else {
    bufferBytes(out, fraction, fractionLen);
    for (let i = <i64>fractionLen; i < wanted; i++) bufferByte(out, 0x30);
  }
  return bufferToBytes(out);
}

/** The integral digits (maybe `-`-signed) with `sep` before each group of three counted from the start mod 3. */
function writeGrouped(out: Buffer, text: usize, len: usize, sep: usize, sepLen: usize): void {
  const start = bufferLength(out);
  const head = len % 3;
  bufferBytes(out, text, head);
  for (let at = head; at < len; at += 3) {
    bufferBytes(out, sep, sepLen);
    bufferBytes(out, text + at, 3);
  }
  // Rust's `trim_start_matches(sep)`.
  if (sepLen == 0) return;
  let from = start;
  while (from + sepLen <= bufferLength(out) && memory.compare(bufferData(out) + from, sep, sepLen) == 0) from += sepLen;
  if (from == start) return;
  const rest = bufferLength(out) - from;
  memory.copy(bufferData(out) + start, bufferData(out) + from, rest);
  bufferTruncate(out, start + rest);
}
