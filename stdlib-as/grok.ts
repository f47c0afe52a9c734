// `parse_grok` in the stdlib: the compiler calls `grok_parse` and the JS function where it gives 0 (no match:
// the JS function words the error; a pattern the host could not compile). The host expands the pattern once
// (`svc_js.grok`, runtime/imports.ts) into a program for the regex VM and the group of each field; the reply
// is kept for the rest of the arena's generation, so a batch asks once per pattern.

import {
  Value,
  Tag,
  tagOf,
  bytesPtr,
  bytesLen,
  bytesSlice,
  newBytes,
  newObject,
  objectFind,
  objectSet,
  arenaGeneration,
} from './value';
import { regexSearch, slotScratch, FIRST_SEARCH_BITS } from './regex-vm';
import { lossy } from './functions/support/text';

// @ts-ignore: decorator
@external("svc_js", "grok")
declare function jsGrok(ptr: usize, len: usize): usize;

/** Replies by pattern for this arena generation: (generation, pattern address, pattern length, reply) each. */
const ENTRIES: usize = 4;
const ENTRY_SIZE: usize = 16;
const REPLIES = memory.data(<i32>(ENTRIES * ENTRY_SIZE), 4);
let nextEntry: usize = 0;

/** The host's reply for the pattern (docs in runtime/imports.ts `grokReply`), or 0. */
function grokReply(ptr: usize, len: usize): usize {
  const generation = arenaGeneration();
  for (let i: usize = 0; i < ENTRIES; i++) {
    const entry = REPLIES + i * ENTRY_SIZE;
    if (load<u32>(entry) != generation || <usize>load<u32>(entry, 8) != len || load<u32>(entry, 12) == 0) continue;
    const at = <usize>load<u32>(entry, 4);
    if (at == ptr || memory.compare(at, ptr, len) == 0) return <usize>load<u32>(entry, 12);
  }
  const reply = jsGrok(ptr, len);
  const entry = REPLIES + nextEntry * ENTRY_SIZE;
  nextEntry = (nextEntry + 1) % ENTRIES;
  store<u32>(entry, generation);
  store<u32>(entry, <u32>ptr, 4);
  store<u32>(entry, <u32>len, 8);
  store<u32>(entry, <u32>reply, 12);
  return reply;
}

/**
 * The first match of the grok `pattern` in `value`: each field's text, "" where its group took no part (a
 * field named twice keeps the text of the last group that took part); 0 for the JS function to answer.
 */
export function grok_parse(value: Value, pattern: Value): Value {
  if (tagOf(value) != Tag.Bytes || tagOf(pattern) != Tag.Bytes) return 0;
  const reply = grokReply(bytesPtr(pattern), bytesLen(pattern));
  if (reply == 0) return 0;
  const program = reply + 4;
  let field = program + ((<usize>load<u32>(reply) + 3) & ~3);
  const text = lossy(value);
  const slots = slotScratch(program);
  if (!regexSearch(program, bytesPtr(text), bytesLen(text), 0, slots, FIRST_SEARCH_BITS)) return 0;
  const count = <usize>load<u32>(field);
  field += 4;
  const fields = newObject(count);
  for (let i: usize = 0; i < count; i++) {
    const group = <usize>load<u32>(field);
    const nameLen = <usize>load<u32>(field, 4);
    const name = field + 8;
    field += 8 + ((nameLen + 3) & ~3);
    const start = load<i32>(slots + (group << 3));
    if (start >= 0)
      objectSet(fields, name, nameLen, bytesSlice(text, <usize>start, <usize>load<i32>(slots + (group << 3), 4)));
    else if (objectFind(fields, name, nameLen) < 0) objectSet(fields, name, nameLen, newBytes(name, 0));
  }
  return fields;
}
