// Regex values. Matching runs in the host's engine (docs/abi.md §6): the value keeps the host's id and
// the pattern text for display and encoding.

import { Value, newRegex, regexId, bytesPtr, bytesLen } from './value';
import { decodeValue } from './codec/binary';
import { fail } from './error';

// @ts-ignore: decorator
@external("svc_host", "regex")
declare function hostRegex(ptr: usize, len: usize): i32;

// @ts-ignore: decorator
@external("svc_host", "regex_error")
declare function hostRegexError(): usize;

// @ts-ignore: decorator
@external("svc_host", "regex_match")
declare function hostRegexMatch(id: u32, ptr: usize, len: usize): i32;

/** A regex value for the pattern bytes (validated at compile time or by the caller). */
export function compileRegex(ptr: usize, len: usize): Value {
  return newRegex(<u32>hostRegex(ptr, len), ptr, len);
}

/** A regex value for pattern bytes compiled at run time, or 0 with the host's reason when they are invalid. */
export function compileRegexChecked(ptr: usize, len: usize): Value {
  const id = hostRegex(ptr, len);
  if (id < 0) {
    const reply = hostRegexError();
    return fail(reply + 4, <usize>load<u32>(reply));
  }
  return newRegex(<u32>id, ptr, len);
}

export function regexMatches(re: Value, ptr: usize, len: usize): bool {
  return hostRegexMatch(regexId(re), ptr, len) != 0;
}

// @ts-ignore: decorator
@external("svc_host", "regex_matches")
declare function hostRegexMatches(id: u32, ptr: usize, len: usize, limit: i32): usize;

/**
 * The matches of `re` in a byte string, at most `limit` (all when negative), as an array of
 * `[start, end, match]`: byte offsets and the object `replace_with` closures receive
 * (`string`, `captures`, and one field per named group).
 */
export function regexFindAll(value: Value, re: Value, limit: i32): Value {
  return decodeValue(hostRegexMatches(regexId(re), bytesPtr(value), bytesLen(value), limit));
}
