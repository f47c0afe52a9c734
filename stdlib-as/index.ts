// Entry of stdlib.wasm: re-exports the functions the code generator and the host use (docs/abi.md §5, §8).
// Each module below exports its own entry points; the linker keeps only the ABI exports.

import { Value } from './value';
import { encodeToArena, encodedSize, decodeValue } from './codec/binary';
import { writeDisplay } from './codec/display';
import { parseIntBytes, parseFloatBytes, numberParsed } from './codec/number';
import { bufferNew, bufferToBytes } from './buffer';
import { newInt, newFloat, bytesPtr, bytesLen, regexProgram } from './value';
import { regexSearch, slotScratch, FIRST_SEARCH_BITS } from './regex-vm';
import { failWith } from './error';

// Arena (ABI exports).
export {
  alloc,
  arenaReset as reset,
  arenaUsed as arena_used,
  arenaSetFloor as arena_set_floor,
  runtime_state,
} from './value';

// Building and reading values (the code generator's constants, closures and iteration).
export {
  NULL as value_null,
  TRUE as value_true,
  FALSE as value_false,
  tagOf as value_tag,
  newInt as new_int,
  newFloat as new_float,
  copyBytes as copy_bytes,
  newArray as new_array,
  arrayPush as array_push,
  arrayLen as array_len,
  arrayGet as array_get,
  newObject as new_object,
  objectSet as object_set,
  objectLen as object_len,
  objectValue as object_value,
  objectKeyPtr as object_key_ptr,
  objectKeyLen as object_key_len,
  objectKey as object_key,
  share as value_share,
  bytesPtr as bytes_ptr,
  bytesLen as bytes_len,
  bytesSlice as bytes_slice,
} from './value';
export { regexFindAll as regex_matches } from './regex';

// Errors.
export {
  errorMessagePtr as error_ptr,
  errorMessageLen as error_len,
  errorMessage as error_message,
  fail,
  setOutcome as set_outcome,
  currentOutcome as current_outcome,
  errorPrefix as error_prefix,
  failValue as fail_value,
} from './error';

// Paths, operators and the program drivers.
export { path_get, path_take, path_set, path_remove, path_exists } from './path';
export { may_descend } from './depth';
export { path_unnest } from './functions/unnest';
export {
  op_add,
  op_sub,
  op_mul,
  op_div,
  op_rem,
  op_lt,
  op_le,
  op_gt,
  op_ge,
  op_eq,
  op_ne,
  op_merge,
  op_merge_in_place,
  op_not,
  value_eq,
  bool_test,
  is_falsy,
  op_and,
} from './ops';
export {
  event_cell,
  meta_cell,
  run_batch,
  run_chain,
  run_condition,
  run_ndjson,
  run_framed,
  output_len,
  errors_ptr,
  errors_len,
  ndjson_lines,
  failures_ptr,
  failures_len,
} from './run';

// format_timestamp and parse_timestamp with constant formats (the code generator's choice over the JS functions).
export { strftime_format_utc, strftime_parse, strftime_program } from './strftime';
export { access_log_parse } from './access-log';
export { grok_parse } from './grok';
// `x = push(x, …)`, `x = append(x, …)` and `x = set(x, …)` changing `x` in place (the code generator's choice).
export { push_in_place } from './functions/push';
export { append_in_place } from './functions/append';
export { set_in_place } from './functions/set';
export { merge_in_place } from './functions/merge';

// JS-backed remap functions.
export { jsCall as js_call } from './js';

// Value transfer for the host and the tests: encode/decode one value (docs/abi.md §1).
export function value_decode(ptr: usize): Value {
  return decodeValue(ptr);
}
export function value_encode(v: Value): usize {
  return encodeToArena(v);
}
export function value_encoded_size(v: Value): usize {
  return encodedSize(v);
}

// Text codecs, for the host and the tests.
export function display_of(v: Value): Value {
  const b = bufferNew(64);
  writeDisplay(b, v);
  return bufferToBytes(b);
}
/** The string `v` read as an integer (Rust's `i64::from_str`). */
export function parse_int_text(v: Value): Value {
  const n = parseIntBytes(bytesPtr(v), bytesLen(v));
  return numberParsed() ? newInt(n) : failWith('invalid integer');
}
/** The string `v` read as a float (Rust's `f64::from_str`). */
export function parse_float_text(v: Value): Value {
  const f = parseFloatBytes(bytesPtr(v), bytesLen(v));
  return numberParsed() && !isNaN(f) ? newFloat(f) : failWith('invalid float');
}

export * from './functions/index';

/** For the tests: the first match of regex `re` in byte string `text` at or after byte `from`, as the address
 * of its capture slots (i32 byte offsets, two per group from the whole match on, -1 when unset), or 0. */
export function regex_search(re: Value, text: Value, from: usize): usize {
  const program = regexProgram(re);
  const slots = slotScratch(program);
  return regexSearch(program, bytesPtr(text), bytesLen(text), from, slots, FIRST_SEARCH_BITS) ? slots : 0;
}
