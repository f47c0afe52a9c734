// The nesting depth recursive walks over values go to. A program can build a value of any depth (a closure
// that wraps a variable once per item), and each level of a recursive walk takes wasm stack: past
// MAX_VALUE_DEPTH a walk does not go into the container (it treats it as null) and notes it here. The event then
// fails with TOO_DEEP's message: runEvent checks after the program, the output writers after writing the
// event (stdlib-as/run.ts, codec/encode.ts). docs/value-limits.md.

import { Value } from './value';
import { failWith } from './error';
import { MAX_VALUE_DEPTH } from '../abi/wire/values';

/** The error of an event holding a deeper value (it spells MAX_VALUE_DEPTH). */
export const TOO_DEEP = 'value nested deeper than 1000 levels';

let exceeded = false;

/** Whether a walk at `depth` (the root is 0) may go into a container there; false past MAX_VALUE_DEPTH, noted. */
// @ts-ignore: decorator
@inline export function mayDescend(depth: i32): bool {
  if (depth < MAX_VALUE_DEPTH) return true;
  exceeded = true;
  return false;
}

/** `mayDescend` for generated code (the recursive map_values / map_keys helpers). */
export function may_descend(depth: i32): bool {
  return mayDescend(depth);
}

/** Whether a walk stopped at MAX_VALUE_DEPTH since the last call; clears the note. */
export function takeDepthExceeded(): bool {
  const was = exceeded;
  exceeded = false;
  return was;
}

/** Records the error of an event that holds a value nested deeper than MAX_VALUE_DEPTH; returns 0. */
export function failTooDeep(): Value {
  return failWith(TOO_DEEP);
}
