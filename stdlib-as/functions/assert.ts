// `assert(condition, message)`: true when the condition holds, else an error with `message` (or
// `assertion failed`).

import { Value, TRUE, bytesPtr, bytesLen } from '../value';
import { fail, failWith } from '../error';
import { KindBit, expectKinds } from './args';

export function fn_assert(condition: Value, message: Value): Value {
  if (!expectKinds(condition, KindBit.Boolean)) return 0;
  if (message != 0 && !expectKinds(message, KindBit.Bytes)) return 0;
  if (condition == TRUE) return TRUE;
  return message != 0 ? fail(bytesPtr(message), bytesLen(message)) : failWith('assertion failed');
}
