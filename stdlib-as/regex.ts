// Regex values. Matching runs in the host's engine (docs/abi.md §6): the value keeps the host's id and
// the pattern text for display and encoding.

import { Value, newRegex, regexId } from './value';

// @ts-ignore: decorator
@external("svc_host", "regex")
declare function hostRegex(ptr: usize, len: usize): i32;

// @ts-ignore: decorator
@external("svc_host", "regex_match")
declare function hostRegexMatch(id: u32, ptr: usize, len: usize): i32;

/** A regex value for the pattern bytes (validated at compile time or by the caller). */
export function compileRegex(ptr: usize, len: usize): Value {
  return newRegex(<u32>hostRegex(ptr, len), ptr, len);
}

export function regexMatches(re: Value, ptr: usize, len: usize): bool {
  return hostRegexMatch(regexId(re), ptr, len) != 0;
}
