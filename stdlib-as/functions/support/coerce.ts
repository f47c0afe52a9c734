// Error messages of the `to_*` coercions, as VRL words them.

import { Value } from '../../value';
import { fail } from '../../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../../buffer';
import { writeDebugQuoted } from '../../text';
import { writeValueKind } from '../../kind-names';

/** `unable to coerce [integer] into boolean`: the value's exact type, as VRL's `Value::kind`. */
export function failCoerce(value: Value, into: string): Value {
  const b = bufferNew(48);
  bufferAscii(b, 'unable to coerce ');
  writeValueKind(b, value);
  bufferAscii(b, ' into ');
  bufferAscii(b, into);
  return fail(bufferData(b), bufferLength(b));
}

/** `<what> "<text>"` then `: <reason>` when a reason is given, e.g. `Invalid integer "x": invalid digit found in string`. */
export function failUnparsable(what: string, ptr: usize, len: usize, reason: string): Value {
  const b = bufferNew(len + 64);
  bufferAscii(b, what);
  bufferAscii(b, ' ');
  writeDebugQuoted(b, ptr, len);
  if (reason.length > 0) {
    bufferAscii(b, ': ');
    bufferAscii(b, reason);
  }
  return fail(bufferData(b), bufferLength(b));
}
