import { Value, newFloat, bytesPtr, bytesLen } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { parseFloatBytes, numberParsed } from '../codec/number';
import { expectKinds } from './support/args';
import { writeDebugQuoted } from '../text';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `parse_float(value)`: Rust's `f64::from_str` (`inf` included); NaN is refused. */
export function fn_parse_float(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  const f = parseFloatBytes(ptr, len);
  if (numberParsed() && !isNaN(f)) return newFloat(f);
  const b = bufferNew(len + 64);
  bufferAscii(b, numberParsed() ? 'NaN number not supported ' : 'Invalid floating point number ');
  writeDebugQuoted(b, ptr, len);
  if (!numberParsed()) {
    bufferAscii(b, len == 0 ? ': cannot parse float from empty string' : ': invalid float literal');
  }
  return fail(bufferData(b), bufferLength(b));
}
