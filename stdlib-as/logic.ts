// `||` and `&&` as VRL evaluates them: `a || b` is `a` unless `a` is null or false; `a && b` is false when
// `a` is null or false, else both sides must be booleans.

import { Value, NULL, FALSE, TRUE, Tag, tagOf } from './value';
import { fail } from './error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from './buffer';
import { writeValueKind } from './ops';

export function is_falsy(v: Value): bool {
  return v == NULL || v == FALSE;
}

/** `l && r` once `l` is known not to be falsy: a null right side counts as false. */
export function op_and(l: Value, r: Value): Value {
  if (l == TRUE && (r == NULL || tagOf(r) == Tag.Bool)) return r == TRUE ? TRUE : FALSE;
  const b = bufferNew(64);
  bufferAscii(b, "can't apply an AND to types ");
  writeValueKind(b, l);
  bufferAscii(b, ' and ');
  writeValueKind(b, r);
  return fail(bufferData(b), bufferLength(b));
}
