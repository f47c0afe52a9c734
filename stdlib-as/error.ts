// Runtime errors. A failing operation records its message here and returns 0 instead of a value; the
// compiled program checks for 0 and either handles the error (`??`, `ok, err =`) or stops the event.
// Messages are UTF-8 bytes in the arena, built only on the error path.

import { Value, alloc, allocBytes, bytesPtr, bytesLen, copyBytes } from './value';
import { Outcome } from '../abi/wire/batch';

let messagePtr: usize = 0;
let messageLen: usize = 0;
/** How the program stopped for the current event. */
let outcome: Outcome = Outcome.Kept;

export function errorMessagePtr(): usize {
  return messagePtr;
}
export function errorMessageLen(): usize {
  return messageLen;
}
/** The pending error message as a byte string value (for `err` variables and `??`). */
export function errorMessage(): Value {
  return copyBytes(messagePtr, messageLen);
}

/** Records `len` bytes at `ptr` as the error message; returns 0 so callers can `return fail(...)`. */
export function fail(ptr: usize, len: usize): Value {
  messagePtr = ptr;
  messageLen = len;
  return 0;
}

/** Records an ASCII/UTF-16 string literal as the error message (narrowed to UTF-8); returns 0. */
export function failWith(text: string): Value {
  const v = textBytes(text);
  return fail(bytesPtr(v), bytesLen(v));
}

/** Records `prefix` + the pending message (e.g. `unable to parse json: ` + detail); returns 0. */
export function failPrefixed(text: string): Value {
  return errorPrefix(textBytes(text));
}

/** UTF-8 bytes of an AssemblyScript string literal (static data, so no managed allocation happens). */
export function textBytes(text: string): Value {
  const units = <usize>text.length;
  const src = changetype<usize>(text);
  let size: usize = 0;
  for (let i: usize = 0; i < units; i++) {
    const c = <u32>load<u16>(src + (i << 1));
    size += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  const v = allocBytes(size);
  let out = bytesPtr(v);
  for (let i: usize = 0; i < units; i++) {
    const c = <u32>load<u16>(src + (i << 1));
    if (c < 0x80) {
      store<u8>(out++, <u8>c);
    } else if (c < 0x800) {
      store<u8>(out++, <u8>(0xc0 | (c >> 6)));
      store<u8>(out++, <u8>(0x80 | (c & 63)));
    } else {
      store<u8>(out++, <u8>(0xe0 | (c >> 12)));
      store<u8>(out++, <u8>(0x80 | ((c >> 6) & 63)));
      store<u8>(out++, <u8>(0x80 | (c & 63)));
    }
  }
  return v;
}

export function setOutcome(o: Outcome): void {
  outcome = o;
}
export function currentOutcome(): Outcome {
  return outcome;
}

/** Prepends `prefix` (a byte string value, e.g. `function call error for "f" at (0:9): `) to the pending message; returns 0. */
export function errorPrefix(prefix: Value): Value {
  const n = bytesLen(prefix);
  const out = alloc(n + messageLen);
  memory.copy(out, bytesPtr(prefix), n);
  memory.copy(out + n, messagePtr, messageLen);
  return fail(out, n + messageLen);
}

/** Records a byte string value as the message (`abort "reason"`); returns 0. */
export function failValue(message: Value): Value {
  return fail(bytesPtr(message), bytesLen(message));
}
