// Calls into JS-backed remap functions (docs/abi.md §6, `svc_js.call`): the arguments travel as one
// encoded array, the reply as a status byte followed by the result value or the error message.

import { Value, NULL, newArray, arrayPush } from './value';
import { encodeToArena, encodedSize, decodeValue } from './codec/binary';
import { fail } from './error';

// @ts-ignore: decorator
@external("svc_js", "call")
declare function jsCallImport(fn: i32, ptr: usize, len: usize): usize;

/** Calls JS function `fn` with `argc` argument values stored at `argv` (0 for an absent argument). */
export function jsCall(fn: i32, argv: usize, argc: i32): Value {
  const args = newArray(<usize>argc);
  for (let i = 0; i < argc; i++) {
    const v = load<u32>(argv + ((<usize>i) << 2));
    arrayPush(args, v == 0 ? NULL : v);
  }
  const encoded = encodeToArena(args);
  const reply = jsCallImport(fn, encoded, encodedSize(args));
  if (load<u8>(reply) == 0) return decodeValue(reply + 1);
  return fail(reply + 5, <usize>load<u32>(reply + 1));
}
