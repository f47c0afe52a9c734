// `assert_eq(left, right, message)`: true when the values are equal (same kinds, deeply: `1` is not
// `1.0`), else an error with `message`, or `assertion failed: <left> == <right>` in display form.

import { Value, TRUE, bytesPtr, bytesLen } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { writeDisplay } from '../codec/display';
import { value_eq } from '../ops';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_assert_eq(left: Value, right: Value, message: Value): Value {
  if (value_eq(left, right)) return TRUE;
  // VRL looks at the message only when the assertion fails.
  if (message != 0) return expectKinds(message, KindBit.Bytes) ? fail(bytesPtr(message), bytesLen(message)) : 0;
  const b = bufferNew(64);
  bufferAscii(b, 'assertion failed: ');
  writeDisplay(b, left);
  bufferAscii(b, ' == ');
  writeDisplay(b, right);
  return fail(bufferData(b), bufferLength(b));
}
