// `assert(condition, message)`: true when the condition holds, else an error with `message` (or
// `assertion failed`).

import { Value, TRUE, bytesPtr, bytesLen } from '../value';
import { fail, failWith } from '../error';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_assert(condition: Value, message: Value): Value {
  if (!expectKinds(condition, KindBit.Boolean)) return 0;
  if (condition == TRUE) return TRUE;
  // VRL looks at the message only when the assertion fails.
  if (message == 0) return failWith('assertion failed');
  return expectKinds(message, KindBit.Bytes) ? fail(bytesPtr(message), bytesLen(message)) : 0;
}
