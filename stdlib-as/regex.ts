// Regex values. Matching runs in the JS engine (docs/abi.md §6): the value keeps the runtime's id and
// the pattern text for display and encoding.

import { Value, Tag, tagOf, newRegex, regexId, bytesPtr, bytesLen } from './value';
import { decodeValue } from './codec/binary';
import { fail } from './error';

// @ts-ignore: decorator
@external("svc_js", "regex")
declare function jsRegex(ptr: usize, len: usize): i32;

// @ts-ignore: decorator
@external("svc_js", "regex_error")
declare function jsRegexError(): usize;

/** A regex value for the pattern bytes (validated at compile time or by the caller). */
export function compileRegex(ptr: usize, len: usize): Value {
  return newRegex(<u32>jsRegex(ptr, len), ptr, len);
}

/** A regex value for pattern bytes compiled at run time, or 0 with the host's reason when they are invalid. */
export function compileRegexChecked(ptr: usize, len: usize): Value {
  const id = jsRegex(ptr, len);
  if (id < 0) {
    const reply = jsRegexError();
    return fail(reply + 4, <usize>load<u32>(reply));
  }
  return newRegex(<u32>id, ptr, len);
}

// @ts-ignore: decorator
@external("svc_js", "regex_matches")
declare function jsRegexMatches(id: u32, ptr: usize, len: usize, limit: i32): usize;

/**
 * The matches of `re` in a byte string, at most `limit` (all when negative), as an array of
 * `[start, end, match]`: byte offsets and the object `replace_with` closures receive
 * (`string`, `captures`, and one field per named group). 0 with the host's text when a group has one of
 * the names the match object reserves.
 */
export function regexFindAll(value: Value, re: Value, limit: i32): Value {
  const matches = decodeValue(jsRegexMatches(regexId(re), bytesPtr(value), bytesLen(value), limit));
  return tagOf(matches) == Tag.Bytes ? fail(bytesPtr(matches), bytesLen(matches)) : matches;
}

// @ts-ignore: decorator
@external("svc_js", "regex_split")
declare function jsRegexSplit(id: u32, ptr: usize, len: usize, limit: i32): usize;

// @ts-ignore: decorator
@external("svc_js", "regex_replace")
declare function jsRegexReplace(id: u32, ptr: usize, len: usize, withPtr: usize, withLen: usize, count: i32): usize;

/**
 * Splits the valid UTF-8 at `ptr` around the regex's matches, into at most `limit` (> 0) pieces. Returns
 * the address of `u32 count`, then `count` pairs of u32 byte offsets (start, end) into the text.
 */
export function regexSplit(re: Value, ptr: usize, len: usize, limit: i32): usize {
  return jsRegexSplit(regexId(re), ptr, len, limit);
}

/**
 * The valid UTF-8 at `ptr` with the first `count` matches (all when negative) replaced by `with`, where
 * `$1`, `$name`, `${name}` insert groups and `$$` a dollar. Returns the address of `u32 length`, then the bytes.
 */
export function regexReplace(re: Value, ptr: usize, len: usize, withPtr: usize, withLen: usize, count: i32): usize {
  return jsRegexReplace(regexId(re), ptr, len, withPtr, withLen, count);
}
