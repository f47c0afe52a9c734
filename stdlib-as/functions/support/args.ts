// Run-time checks of argument kinds, for calls whose argument kinds the compiler could not verify.
// The message is VRL's: `expected string, got integer`.

import { Value, TRUE } from '../../value';
import { fail } from '../../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../../buffer';
import { KindBit } from '../../../abi/wire/kinds';
import { kindBitOf, writeKinds, writeValueKind } from '../../kind-names';

/** True when `v` is one of `mask`'s kinds; otherwise records VRL's message (with `v`'s exact type) and returns false. */
export function expectKinds(v: Value, mask: u32): bool {
  if ((kindBitOf(v) & mask) != 0) return true;
  const b = bufferNew(48);
  bufferAscii(b, 'expected ');
  writeKinds(b, mask);
  bufferAscii(b, ', got ');
  writeValueKind(b, v);
  fail(bufferData(b), bufferLength(b));
  return false;
}

/** An optional boolean argument: `fallback` when absent (0), else 1 or 0; -1 (message pending) for a non-boolean. */
export function optionalBool(v: Value, fallback: bool): i32 {
  if (v == 0) return fallback ? 1 : 0;
  if (!expectKinds(v, KindBit.Boolean)) return -1;
  return v == TRUE ? 1 : 0;
}
