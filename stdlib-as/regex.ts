// Regex values and the regex crate's iteration over the wasm engine (./regex-vm.ts, docs/regex.md): a
// value holds its compiled program and its pattern text (for display and encoding). Literal patterns are
// compiled by the compiler into the constants; patterns made at run time get their program from the host
// (`svc_js.regex`, cached there by pattern).

import {
  Value,
  NULL,
  newRegex,
  regexProgram,
  bytesPtr,
  bytesLen,
  newArray,
  arrayPush,
  newObject,
  objectInsertAt,
  objectSet,
  newInt,
  allocBytes,
} from './value';
import { fail, failWith } from './error';
import { Buffer, bufferBytes } from './buffer';
import {
  regexSearch,
  slotScratch,
  programGroupCount,
  programNames,
  FIRST_SEARCH_BITS,
  NEXT_SEARCH_BITS,
} from './regex-vm';
import { bytesSlice, sequenceLength } from './functions/support/text';

// @ts-ignore: decorator
@external("svc_js", "regex")
declare function jsRegex(ptr: usize, len: usize): usize;

/**
 * A regex value for pattern bytes compiled at run time, or 0 with the host's reason when they are invalid.
 * The host's reply: u32 0 and the program, or u32 1 and the message, after a u32 length (data at +8).
 */
export function compileRegexChecked(ptr: usize, len: usize): Value {
  const reply = jsRegex(ptr, len);
  if (load<u32>(reply) != 0) return fail(reply + 8, <usize>load<u32>(reply, 4));
  return newRegex(reply + 8, ptr, len);
}

/**
 * A regex value for pattern bytes that were valid where they were made (a value from another component; the
 * host refuses to encode an invalid one).
 */
export function compileRegex(ptr: usize, len: usize): Value {
  const re = compileRegexChecked(ptr, len);
  if (re == 0) unreachable();
  return re;
}

// ---- iteration -----------------------------------------------------------------------------------------

// The state of one iteration (`Regex::captures_iter`); iterations never nest.
let iterProgram: usize = 0;
let iterText: usize = 0;
let iterLen: usize = 0;
let iterFrom: usize = 0;
let iterLastEnd: isize = -1;
/** The slots of the last match (`matchStart`, `groupStart`…). */
let slots: usize = 0;

/** Starts iterating over the matches of `re` in the valid UTF-8 `text`. */
function iterate(re: Value, text: Value): void {
  iterProgram = regexProgram(re);
  iterText = bytesPtr(text);
  iterLen = bytesLen(text);
  iterFrom = 0;
  iterLastEnd = -1;
  slots = slotScratch(iterProgram);
}

/** The next match, as the regex crate reports them: an empty match where the previous one ended is skipped. */
function nextMatch(): bool {
  while (iterFrom <= iterLen) {
    if (
      !regexSearch(
        iterProgram,
        iterText,
        iterLen,
        iterFrom,
        slots,
        iterFrom == 0 ? FIRST_SEARCH_BITS : NEXT_SEARCH_BITS,
      )
    )
      return false;
    const start = <usize>load<i32>(slots);
    const end = <usize>load<i32>(slots, 4);
    iterFrom = end;
    if (start == end) {
      iterFrom = end < iterLen ? end + sequenceLength(load<u8>(iterText + end)) : end + 1;
      if (<isize>start == iterLastEnd) continue;
    }
    iterLastEnd = <isize>end;
    return true;
  }
  return false;
}

/** Whether `re` matches the valid UTF-8 `text` anywhere. */
export function regexMatches(re: Value, text: Value): bool {
  return regexMatchesBytes(re, bytesPtr(text), bytesLen(text));
}

/** Whether `re` matches the `len` bytes of valid UTF-8 at `ptr` anywhere. */
export function regexMatchesBytes(re: Value, ptr: usize, len: usize): bool {
  const program = regexProgram(re);
  return regexSearch(program, ptr, len, 0, slotScratch(program), FIRST_SEARCH_BITS);
}

/** The byte offset of the first match at or after `from` in the valid UTF-8 `text`, or -1. */
export function regexFind(re: Value, text: Value, from: usize): isize {
  const program = regexProgram(re);
  const at = slotScratch(program);
  return regexSearch(program, bytesPtr(text), bytesLen(text), from, at, FIRST_SEARCH_BITS) ? <isize>load<i32>(at) : -1;
}

/** Group `group` of the last match as a slice of `text`, or null when it took no part. */
function groupValue(text: Value, group: usize): Value {
  const start = load<i32>(slots + (group << 3));
  if (start < 0) return NULL;
  return bytesSlice(text, <usize>start, <usize>load<i32>(slots + (group << 3), 4));
}

// ---- results -------------------------------------------------------------------------------------------

/** The decimal digits of `n` as a byte string (object keys of numbered groups). */
function decimalKey(n: usize): Value {
  let digits: usize = 1;
  for (let rest = n / 10; rest > 0; rest /= 10) digits++;
  const v = allocBytes(digits);
  for (let i = digits, rest = n; i > 0; i--, rest /= 10) store<u8>(bytesPtr(v) + i - 1, <u8>(0x30 + (rest % 10)));
  return v;
}

/**
 * VRL's object for the last match (`capture_regex_to_map`): with `numeric`, the groups that took part
 * numbered from 0 in order; then each named group (null when it took no part).
 */
function captureObject(text: Value, numeric: bool): Value {
  const names = programNames(iterProgram);
  const count = <usize>load<u32>(names);
  const groups = <usize>programGroupCount(iterProgram);
  const o = newObject(count + (numeric ? groups + 1 : 0));
  let entry = names + 4;
  if (!numeric) {
    // The program lists the names sorted: append in order.
    for (let i: usize = 0; i < count; i++) {
      const keyLen = <usize>load<u32>(entry, 4);
      objectInsertAt(o, i, entry + 8, keyLen, groupValue(text, <usize>load<u32>(entry)));
      entry += 8 + ((keyLen + 3) & ~3);
    }
    return o;
  }
  let index: usize = 0;
  for (let group: usize = 0; group <= groups; group++) {
    if (load<i32>(slots + (group << 3)) < 0) continue;
    const key = decimalKey(index++);
    objectSet(o, bytesPtr(key), bytesLen(key), groupValue(text, group));
  }
  for (let i: usize = 0; i < count; i++) {
    const keyLen = <usize>load<u32>(entry, 4);
    objectSet(o, entry + 8, keyLen, groupValue(text, <usize>load<u32>(entry)));
    entry += 8 + ((keyLen + 3) & ~3);
  }
  return o;
}

/** `parse_regex`: the first match's object, or 0 with VRL's message when there is none. */
export function regexParse(re: Value, text: Value, numeric: bool): Value {
  iterate(re, text);
  if (!nextMatch()) return failWith('could not find any pattern matches');
  return captureObject(text, numeric);
}

/** `parse_regex_all`: the object of every match, in order. */
export function regexParseAll(re: Value, text: Value, numeric: bool): Value {
  iterate(re, text);
  const out = newArray(4);
  while (nextMatch()) arrayPush(out, captureObject(text, numeric));
  return out;
}

/** Whether the program has a group with one of the names `replace_with`'s match object uses itself. */
function namesReservedGroup(program: usize): bool {
  const names = programNames(program);
  let entry = names + 4;
  for (let i: usize = 0, n = <usize>load<u32>(names); i < n; i++) {
    const keyLen = <usize>load<u32>(entry, 4);
    if (isWord(entry + 8, keyLen, 'string') || isWord(entry + 8, keyLen, 'captures')) return true;
    entry += 8 + ((keyLen + 3) & ~3);
  }
  return false;
}

/** Whether the `len` bytes at `ptr` are the ASCII `word`. */
function isWord(ptr: usize, len: usize, word: string): bool {
  if (len != <usize>word.length) return false;
  for (let i: usize = 0; i < len; i++) if (<u32>load<u8>(ptr + i) != <u32>word.charCodeAt(<i32>i)) return false;
  return true;
}

/**
 * The matches of `re` in a valid UTF-8 byte string, at most `limit` (all when negative), as an array of
 * `[start, end, match]`: byte offsets and the object `replace_with` closures receive (`string`,
 * `captures`: the groups after the whole match, null where one took no part; and each named group). 0 with
 * VRL's message when a group has one of the names the match object reserves (whether or not anything matches).
 */
export function regexFindAll(text: Value, re: Value, limit: i32): Value {
  iterate(re, text);
  const out = newArray(4);
  // VRL refuses the names before it looks for a match.
  if (namesReservedGroup(iterProgram)) return failWith('Capture group cannot be named "string" or "captures"');
  const groups = <usize>programGroupCount(iterProgram);
  for (let left = limit; left != 0 && nextMatch(); left--) {
    const captures = newArray(groups);
    for (let group: usize = 1; group <= groups; group++) arrayPush(captures, groupValue(text, group));
    const match = captureObject(text, false);
    objectSet(match, changetype<usize>(STRING_KEY), 6, groupValue(text, 0));
    objectSet(match, changetype<usize>(CAPTURES_KEY), 8, captures);
    const item = newArray(3);
    arrayPush(item, newInt(<i64>load<i32>(slots)));
    arrayPush(item, newInt(<i64>load<i32>(slots, 4)));
    arrayPush(item, match);
    arrayPush(out, item);
  }
  return out;
}

const STRING_KEY = memory.data<u8>([0x73, 0x74, 0x72, 0x69, 0x6e, 0x67]);
const CAPTURES_KEY = memory.data<u8>([0x63, 0x61, 0x70, 0x74, 0x75, 0x72, 0x65, 0x73]);

/**
 * `Regex::splitn` over the valid UTF-8 `text`: the pieces between matches, at most `limit` (> 0), the last
 * holding the rest.
 */
export function regexSplit(re: Value, text: Value, limit: i64): Value {
  iterate(re, text);
  const out = newArray(4);
  let rest: usize = 0;
  for (let left = limit; left > 1 && nextMatch(); left--) {
    arrayPush(out, bytesSlice(text, rest, <usize>load<i32>(slots)));
    rest = <usize>load<i32>(slots, 4);
  }
  arrayPush(out, bytesSlice(text, rest, iterLen));
  return out;
}

/**
 * `Regex::replacen` over the valid UTF-8 `text` into `b`: the first `limit` matches (all when negative)
 * replaced by the expansion of `template`. Returns whether anything matched (`b` is then complete).
 */
export function regexReplace(b: Buffer, re: Value, text: Value, template: Value, limit: i64): bool {
  iterate(re, text);
  const literal = !hasDollar(template);
  let rest: usize = 0;
  let matched = false;
  for (let left = limit; left != 0 && nextMatch(); left--) {
    const start = <usize>load<i32>(slots);
    bufferBytes(b, iterText + rest, start - rest);
    if (literal) bufferBytes(b, bytesPtr(template), bytesLen(template));
    else expand(b, text, template);
    rest = <usize>load<i32>(slots, 4);
    matched = true;
  }
  bufferBytes(b, iterText + rest, iterLen - rest);
  return matched;
}

function hasDollar(v: Value): bool {
  for (let i: usize = 0, n = bytesLen(v); i < n; i++) if (load<u8>(bytesPtr(v) + i) == 0x24) return true;
  return false;
}

// @ts-ignore: decorator
@inline function isNameByte(c: u32): bool {
  return c - 0x30 < 10 || (c | 0x20) - 0x61 < 26 || c == 0x5f;
}

/**
 * The regex crate's `Captures::expand` of the last match: `$$` is a dollar; `$name`/`$1` take the longest
 * run of `[0-9A-Za-z_]`, `${name}` anything up to `}`; a name of digits is a group number; a missing or
 * unmatched group inserts nothing; a `$` starting no reference stays as it is.
 */
function expand(b: Buffer, text: Value, template: Value): void {
  const ptr = bytesPtr(template);
  const len = bytesLen(template);
  let at: usize = 0;
  while (at < len) {
    const c = load<u8>(ptr + at);
    if (c != 0x24) {
      let end = at + 1;
      while (end < len && load<u8>(ptr + end) != 0x24) end++;
      bufferBytes(b, ptr + at, end - at);
      at = end;
      continue;
    }
    at++;
    if (at < len && load<u8>(ptr + at) == 0x24) {
      bufferBytes(b, ptr + at, 1);
      at++;
      continue;
    }
    let nameStart = at;
    let nameEnd = at;
    let named = false;
    if (at < len && load<u8>(ptr + at) == 0x7b) {
      let close = at + 1;
      while (close < len && load<u8>(ptr + close) != 0x7d) close++;
      if (close < len) {
        nameStart = at + 1;
        nameEnd = close;
        at = close + 1;
        named = true;
      }
    } else {
      while (nameEnd < len && isNameByte(load<u8>(ptr + nameEnd))) nameEnd++;
      named = nameEnd > nameStart;
      at = nameEnd;
    }
    if (!named) {
      bufferBytes(b, ptr + at - 1, 1);
      continue;
    }
    const group = groupNumber(ptr + nameStart, nameEnd - nameStart);
    if (group < 0) continue;
    const start = load<i32>(slots + ((<usize>group) << 3));
    if (start >= 0)
      bufferBytes(b, bytesPtr(text) + <usize>start, <usize>(load<i32>(slots + ((<usize>group) << 3), 4) - start));
  }
}

/** The group a `$` reference names (digits: its number, with an optional `+`), or -1 when there is none. */
function groupNumber(name: usize, len: usize): isize {
  const groups = <usize>programGroupCount(iterProgram);
  let digits = name;
  const end = name + len;
  if (len > 1 && load<u8>(name) == 0x2b) digits++;
  let number: usize = 0;
  let numeric = digits < end;
  for (let at = digits; at < end && numeric; at++) {
    const d = <u32>load<u8>(at) - 0x30;
    if (d >= 10) numeric = false;
    else if (number <= groups) number = number * 10 + d;
  }
  if (numeric) return number <= groups ? <isize>number : -1;
  const names = programNames(iterProgram);
  let entry = names + 4;
  for (let i: usize = 0, n = <usize>load<u32>(names); i < n; i++) {
    const keyLen = <usize>load<u32>(entry, 4);
    if (keyLen == len && memory.compare(entry + 8, name, len) == 0) return <isize>load<u32>(entry);
    entry += 8 + ((keyLen + 3) & ~3);
  }
  return -1;
}
