// The regex engine: runs a program of abi/regex-program.ts (RE2's automaton of a Rust pattern) over valid
// UTF-8 in memory with leftmost-first (Perl/Rust) semantics and captures, in time linear in the input as
// Rust's regex crate guarantees. Two machines, as the crate's own:
// - a bounded backtracker, which marks each (instruction, position) it has tried in a bitset and never tries
//   it again: O(instructions × input), used while that bitset fits the search's budget (see FIRST_SEARCH_BITS);
// - a Pike VM otherwise: every thread advances one code point at a time, in priority order, O(instructions)
//   per code point and memory independent of the input;
// and, before both, RE2's one-pass machine for a pattern anchored at the start where the next code point
// always decides which branch of a split goes on (most log formats): one thread, no bookkeeping.
// Positions and captures are byte offsets. Memory is scratch reused for every search until the arena resets.

import { alloc, arenaGeneration, copyMemory } from './value';
import { LookFlag, LoopRecord, ProgramFlag, ProgramHeader, RegexAssert, RegexOp } from '../abi/wire/regex-program';
import { codePointAt, codePointStartBefore, sequenceLength } from './functions/support/text';

/**
 * Most visited bits of a backtracking search, which clears its instructions × positions bits first (beyond,
 * the Pike VM runs). The one search of a call may take Rust's 256 KiB: large patterns (a grok library
 * pattern is thousands of instructions) stay on the faster machine over a whole line. Each later search of an
 * iteration over many matches takes 4 KiB, a fixed cost per match, so the iteration stays linear.
 */
export const FIRST_SEARCH_BITS: usize = 2097152;
export const NEXT_SEARCH_BITS: usize = 32768;
/** Marks a job of the stacks below that restores a capture slot instead of trying an instruction. */
const RESTORE: u32 = 0x80000000;

// @ts-ignore: decorator
@inline export function programGroupCount(prog: usize): u32 {
  return load<u32>(prog, ProgramHeader.GroupCount);
}

/** Address of the program's names: u32 count, then (u32 group, u32 length, bytes padded to 4) sorted by name. */
// @ts-ignore: decorator
@inline export function programNames(prog: usize): usize {
  return prog + <usize>load<u32>(prog, ProgramHeader.Names);
}

/** Capture slots of a search: two per group and two for the whole match (i32 byte offsets, -1 when unset). */
// @ts-ignore: decorator
@inline export function slotCount(prog: usize): usize {
  return (<usize>load<u32>(prog, ProgramHeader.GroupCount) + 1) << 1;
}

// ---- scratch memory ------------------------------------------------------------------------------------

/** Reused memory, one block per use: (address, size, arena generation) each. */
const SCRATCH = memory.data(36);
const VISITED: usize = 0;
const JOBS: usize = 12;
const SLOTS: usize = 24;

/**
 * At least `size` bytes of scratch block `block`, allocated again only when the arena was reset or it is
 * too small; `keep` copies the old content into a grown block.
 */
function scratch(block: usize, size: usize, keep: bool = false): usize {
  const at = SCRATCH + block;
  const ptr = <usize>load<u32>(at);
  const had = <usize>load<u32>(at, 4);
  const valid = load<u32>(at, 8) == arenaGeneration() && ptr != 0;
  if (valid && size <= had) return ptr;
  // After a reset, the size reached before; when growing, twice the size, so a stack is copied O(log n) times.
  const grown = size > had << 1 ? size : valid ? had << 1 : size > had ? size : had;
  const fresh = alloc(grown);
  if (valid && keep) copyMemory(fresh, ptr, had);
  store<u32>(at, <u32>fresh);
  store<u32>(at, <u32>grown, 4);
  store<u32>(at, arenaGeneration(), 8);
  return fresh;
}

/** Room for a search's capture slots (`slotCount`), valid until the next call. */
export function slotScratch(prog: usize): usize {
  return scratch(SLOTS, slotCount(prog) << 2);
}

/** The job stack with room for `entries` (u32 pc or RESTORE | slot, u32 position or old slot value). */
function jobStack(entries: usize): usize {
  return scratch(JOBS, entries << 3, true);
}

// @ts-ignore: decorator
@inline function jobCapacity(): usize {
  return <usize>load<u32>(SCRATCH + JOBS, 4) >> 3;
}

// ---- matching one position -----------------------------------------------------------------------------

/** Whether class record `record` holds code point `c` (inline for ASCII, the common case). */
// @ts-ignore: decorator
@inline function classHas(record: usize, c: u32): bool {
  if (c < 0x80) return ((load<u32>(record + ((<usize>c >> 5) << 2)) >>> (c & 31)) & 1) != 0;
  return rangesHave(record, c);
}

/** Whether the ranges above ASCII of class record `record` hold code point `c`. */
function rangesHave(record: usize, c: u32): bool {
  let lo: usize = 0;
  let hi = <usize>load<u32>(record, 16);
  const ranges = record + 20;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const at = ranges + (mid << 3);
    if (c < load<u32>(at)) hi = mid;
    else if (c > load<u32>(at, 4)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Whether the instruction at `inst` (a code point op) accepts `c`. */
// @ts-ignore: decorator
@inline function accepts(prog: usize, op: u32, arg: u32, c: u32): bool {
  if (op == RegexOp.Char) return c == arg;
  if (op == RegexOp.Class) return classHas(prog + <usize>arg, c);
  return op == RegexOp.Any || c != 0x0a;
}

// @ts-ignore: decorator
@inline function isWordByte(b: u32): bool {
  return b - 0x30 < 10 || (b | 0x20) - 0x61 < 26 || b == 0x5f;
}

function assertionHolds(flags: u32, text: usize, len: usize, pos: usize): bool {
  const before: u32 = pos > 0 ? load<u8>(text + pos - 1) : 0x100;
  const after: u32 = pos < len ? load<u8>(text + pos) : 0x100;
  if ((flags & RegexAssert.BeginText) != 0 && pos != 0) return false;
  if ((flags & RegexAssert.EndText) != 0 && pos != len) return false;
  if ((flags & RegexAssert.BeginLine) != 0 && pos != 0 && before != 0x0a) return false;
  if ((flags & RegexAssert.EndLine) != 0 && pos != len && after != 0x0a) return false;
  if ((flags & (RegexAssert.WordBoundary | RegexAssert.NotWordBoundary)) != 0) {
    const boundary = (before < 0x80 && isWordByte(before)) != (after < 0x80 && isWordByte(after));
    if ((flags & RegexAssert.WordBoundary) != 0 && !boundary) return false;
    if ((flags & RegexAssert.NotWordBoundary) != 0 && boundary) return false;
  }
  return true;
}

/** Whether look-around record `record` holds at `pos`. */
function lookHolds(prog: usize, record: usize, text: usize, len: usize, pos: usize): bool {
  const flags = load<u32>(record);
  const n = <usize>load<u32>(record, 4);
  let found = true;
  if ((flags & LookFlag.Behind) != 0) {
    let at = pos;
    for (let i = n; i > 0 && found; i--) {
      if (at == 0) found = false;
      else {
        at = codePointStartBefore(text + at) - text;
        found = classHas(prog + <usize>load<u32>(record + 4 + (i << 2)), codePointAt(text + at));
      }
    }
  } else {
    let at = pos;
    for (let i: usize = 0; i < n && found; i++) {
      if (at >= len) found = false;
      else {
        found = classHas(prog + <usize>load<u32>(record + 8 + (i << 2)), codePointAt(text + at));
        at += sequenceLength(load<u8>(text + at));
      }
    }
  }
  return found != ((flags & LookFlag.Negated) != 0);
}

/**
 * The code point at `pos` in the low 32 bits and its byte length above them; at the end of the text,
 * u32.MAX_VALUE and 0.
 */
// @ts-ignore: decorator
@inline function decodeAt(text: usize, len: usize, pos: usize): u64 {
  if (pos >= len) return <u64>u32.MAX_VALUE;
  const lead = <u32>load<u8>(text + pos);
  if (lead < 0x80) return ((<u64>1) << 32) | <u64>lead;
  return ((<u64>sequenceLength(lead)) << 32) | <u64>codePointAt(text + pos);
}

// @ts-ignore: decorator
@inline function mayStartAt(prog: usize, b: u32): bool {
  return ((load<u32>(prog + ProgramHeader.FirstBytes + ((<usize>b >> 5) << 2)) >>> (b & 31)) & 1) != 0;
}

/**
 * The next position at or after `pos` where a match may start (a code point boundary), or len + 1 when
 * none: with a program that cannot match empty, one whose lead byte starts a code point it accepts first.
 */
function nextStart(prog: usize, text: usize, len: usize, pos: usize): usize {
  if ((load<u32>(prog, ProgramHeader.Flags) & ProgramFlag.Nullable) != 0) {
    while (pos < len && (load<u8>(text + pos) & 0xc0) == 0x80) pos++;
    return pos;
  }
  while (pos < len && !mayStartAt(prog, load<u8>(text + pos))) pos++;
  return pos < len ? pos : len + 1;
}

// ---- search --------------------------------------------------------------------------------------------

/**
 * The leftmost-first match of `prog` in the valid UTF-8 at `text` (`len` bytes) starting at byte `from` or
 * later; assertions see the whole text. Writes `slotCount(prog)` i32 byte offsets to `slots` (group n at
 * 2n, 2n + 1; -1 where a group took no part) and returns whether there is a match.
 */
export function regexSearch(
  prog: usize,
  text: usize,
  len: usize,
  from: usize,
  slots: usize,
  backtrackBits: usize,
): bool {
  if (from > len) return false;
  if ((load<u32>(prog, ProgramHeader.Flags) & ProgramFlag.Anchored) != 0 && from != 0) return false;
  const onePass = <usize>load<u32>(prog, ProgramHeader.OnePass);
  if (onePass != 0) return onePassSearch(prog, prog + onePass, text, len, slots);
  const insts = <usize>load<u32>(prog, ProgramHeader.InstCount);
  const span = len - from + 1;
  if (<u64>insts * <u64>span <= <u64>backtrackBits) return backtrack(prog, text, len, from, slots);
  return pikeSearch(prog, text, len, from, slots);
}

function backtrack(prog: usize, text: usize, len: usize, from: usize, slots: usize): bool {
  const insts = <usize>load<u32>(prog, ProgramHeader.InstCount);
  const span = len - from + 1;
  const visitedBytes = ((insts * span + 31) >> 5) << 2;
  const visited = scratch(VISITED, visitedBytes);
  memory.fill(visited, 0, visitedBytes);
  const nslots = slotCount(prog);
  const anchored = (load<u32>(prog, ProgramHeader.Flags) & ProgramFlag.Anchored) != 0;
  for (let start = nextStart(prog, text, len, from); start <= len; ) {
    for (let i: usize = 0; i < nslots; i++) store<i32>(slots + (i << 2), -1);
    if (tryBacktrack(prog, text, len, from, span, visited, slots, start)) return true;
    if (anchored || start == len) break;
    start = nextStart(prog, text, len, start + 1);
  }
  return false;
}

/** One start position of `backtrack`: depth-first in priority order, each (pc, position) at most once. */
function tryBacktrack(
  prog: usize,
  text: usize,
  len: usize,
  from: usize,
  span: usize,
  visited: usize,
  slots: usize,
  start: usize,
): bool {
  const nslots = <u32>slotCount(prog);
  const loops = <usize>load<u32>(prog, ProgramHeader.Loops);
  let jobs = jobStack(64);
  let capacity = jobCapacity();
  let sp: usize = 0;
  store<u32>(jobs, load<u32>(prog, ProgramHeader.StartPc));
  store<u32>(jobs, <u32>start, 4);
  sp = 1;
  while (sp > 0) {
    sp--;
    let pc = load<u32>(jobs + (sp << 3));
    let pos = <usize>load<u32>(jobs + (sp << 3), 4);
    if ((pc & RESTORE) != 0) {
      store<i32>(slots + ((<usize>(pc & ~RESTORE)) << 2), <i32>pos);
      continue;
    }
    while (true) {
      const bit = <usize>pc * span + (pos - from);
      const word = visited + ((bit >> 5) << 2);
      const mask: u32 = 1 << (<u32>(bit & 31));
      const seen = load<u32>(word);
      if ((seen & mask) != 0) break;
      store<u32>(word, seen | mask);
      const inst = prog + ProgramHeader.Size + <usize>pc * 12;
      const op = load<u32>(inst);
      const out = load<u32>(inst, 4);
      const arg = load<u32>(inst, 8);
      if (op <= <u32>RegexOp.AnyNotNewline) {
        if (op == RegexOp.Match) {
          store<i32>(slots, <i32>start);
          store<i32>(slots, <i32>pos, 4);
          return true;
        }
        const next = decodeAt(text, len, pos);
        if (next >> 32 == 0 || !accepts(prog, op, arg, <u32>next)) break;
        pos += <usize>(next >> 32);
        pc = out;
        continue;
      }
      if (op == RegexOp.Split && loops != 0) {
        const record = prog + <usize>load<u32>(prog + loops + ((<usize>pc) << 2));
        if (record != prog) {
          const loop = prog + ProgramHeader.Size + <usize>load<u32>(record, LoopRecord.LoopPc) * 12;
          const greedy = load<u32>(record, LoopRecord.Greedy) != 0;
          // Greedy: the exit cannot start where the loop goes on, so the loop's whole run, then the exit. Lazy:
          // past the code points the loop takes and the exit cannot start with, then as any split. The
          // positions passed are marked tried at this split: from any of them it would reach the same end.
          const exitFirst = greedy ? 0 : prog + <usize>load<u32>(record, LoopRecord.ExitFirst);
          const bitBase = <usize>pc * span - from;
          pos = loopRunEnd(prog, load<u32>(loop), load<u32>(loop, 8), exitFirst, text, len, pos, visited, bitBase);
          if (greedy) {
            pc = load<u32>(record, LoopRecord.ExitPc);
            continue;
          }
        }
      }
      if (op == RegexOp.Split || op == RegexOp.Save) {
        // Room for one more job (a stack may need one per visited bit).
        if (sp == capacity) {
          jobs = jobStack(capacity + 1);
          capacity = jobCapacity();
        }
        const job = jobs + (sp << 3);
        if (op == RegexOp.Split) {
          store<u32>(job, arg);
          store<u32>(job, <u32>pos, 4);
          sp++;
        } else if (arg < nslots) {
          store<u32>(job, arg | RESTORE);
          store<i32>(job, load<i32>(slots + ((<usize>arg) << 2)), 4);
          sp++;
          store<i32>(slots + ((<usize>arg) << 2), <i32>pos);
        }
        pc = out;
        continue;
      }
      if (op == RegexOp.Assert) {
        if (!assertionHolds(arg, text, len, pos)) break;
      } else if (op == RegexOp.Look) {
        if (!lookHolds(prog, prog + <usize>arg, text, len, pos)) break;
      } else if (op == RegexOp.Fail) {
        break;
      }
      pc = out;
    }
  }
  return false;
}

/**
 * The end of the run from `pos` of code points the loop's instruction (`op`, `arg`) accepts and, with an
 * `exitFirst` class record (not 0), that class does not hold. Each position passed gets its bit
 * `bitBase + position` set in `visited`.
 */
function loopRunEnd(
  prog: usize,
  op: u32,
  arg: u32,
  exitFirst: usize,
  text: usize,
  len: usize,
  pos: usize,
  visited: usize,
  bitBase: usize,
): usize {
  while (pos < len) {
    const lead = <u32>load<u8>(text + pos);
    const c = lead < 0x80 ? lead : codePointAt(text + pos);
    if (!accepts(prog, op, arg, c) || (exitFirst != 0 && classHas(exitFirst, c))) break;
    const bit = bitBase + pos;
    const word = visited + ((bit >> 5) << 2);
    store<u32>(word, load<u32>(word) | (1 << (<u32>(bit & 31))));
    pos += sequenceLength(lead);
  }
  return pos;
}

/** The one-pass machine over `table` (the program's one-pass instructions), from offset 0. */
function onePassSearch(prog: usize, table: usize, text: usize, len: usize, slots: usize): bool {
  const nslots = <u32>slotCount(prog);
  for (let i: u32 = 0; i < nslots; i++) store<i32>(slots + ((<usize>i) << 2), -1);
  store<i32>(slots, 0);
  let pc = load<u32>(prog, ProgramHeader.StartPc);
  let pos: usize = 0;
  while (true) {
    const inst = table + <usize>pc * 12;
    const op = load<u32>(inst);
    const out = load<u32>(inst, 4);
    const arg = load<u32>(inst, 8);
    if (op <= <u32>RegexOp.AnyNotNewline) {
      if (op == RegexOp.Match) {
        store<i32>(slots, <i32>pos, 4);
        return true;
      }
      if (pos >= len) return false;
      const lead = <u32>load<u8>(text + pos);
      const c = lead < 0x80 ? lead : codePointAt(text + pos);
      if (!accepts(prog, op, arg, c)) return false;
      pos += sequenceLength(lead);
      pc = out;
      continue;
    }
    if (op >= <u32>RegexOp.OnePassSplit) {
      const record = prog + <usize>arg;
      // A branch is one code point instruction back to this split: take its run at once.
      const loop = <usize>load<u32>(record, 12);
      if (loop != 0) pos = classRunEnd(prog + loop, text, len, pos);
      if (pos < len) {
        const lead = <u32>load<u8>(text + pos);
        const c = lead < 0x80 ? lead : codePointAt(text + pos);
        // After a run, its own class cannot hold `c`.
        const toOut = <usize>load<u32>(record, 4);
        if (toOut != loop && classHas(prog + toOut, c)) {
          pc = out;
          continue;
        }
        const toArg = <usize>load<u32>(record, 8);
        if (toArg != loop && classHas(prog + toArg, c)) {
          pc = load<u32>(record);
          continue;
        }
      }
      if (op != RegexOp.OnePassSplitMatch) return false;
      pc = out;
      continue;
    }
    if (op == RegexOp.Save) {
      if (arg < nslots) store<i32>(slots + ((<usize>arg) << 2), <i32>pos);
    } else if (op == RegexOp.Assert) {
      if (!assertionHolds(arg, text, len, pos)) return false;
    } else if (op == RegexOp.Fail) {
      return false;
    }
    pc = out;
  }
  // biome-ignore lint/correctness/noUnreachable: asc wants a return after the loop
  return false;
}

/** The end of the run of code points of class record `record` that starts at `pos`; ASCII a byte at a time. */
function classRunEnd(record: usize, text: usize, len: usize, pos: usize): usize {
  while (pos < len) {
    const lead = <u32>load<u8>(text + pos);
    if (lead < 0x80) {
      if (((load<u32>(record + ((<usize>lead >> 5) << 2)) >>> (lead & 31)) & 1) == 0) break;
      pos++;
    } else {
      if (!rangesHave(record, codePointAt(text + pos))) break;
      pos += sequenceLength(lead);
    }
  }
  return pos;
}

// ---- Pike VM -------------------------------------------------------------------------------------------

// A thread queue: u32 size, then `dense` (pcs in priority order), `sparse` (index of a pc in dense), and the
// capture slots of each pc's thread, each insts long. Sparse sets need no clearing.

// @ts-ignore: decorator
@inline function queueBytes(insts: usize, nslots: usize): usize {
  return 4 + (insts << 3) + ((insts * nslots) << 2);
}

// @ts-ignore: decorator
@inline function queueDense(q: usize): usize {
  return q + 4;
}

function queueHas(q: usize, insts: usize, pc: u32): bool {
  const size = load<u32>(q);
  const index = load<u32>(q + 4 + (insts << 2) + ((<usize>pc) << 2));
  return index < size && load<u32>(q + 4 + ((<usize>index) << 2)) == pc;
}

function queueInsert(q: usize, insts: usize, pc: u32): void {
  const size = load<u32>(q);
  store<u32>(q + 4 + ((<usize>size) << 2), pc);
  store<u32>(q + 4 + (insts << 2) + ((<usize>pc) << 2), size);
  store<u32>(q, size + 1);
}

// @ts-ignore: decorator
@inline function queueSlots(q: usize, insts: usize, nslots: usize, pc: u32): usize {
  return q + 4 + (insts << 3) + ((<usize>pc * nslots) << 2);
}

/**
 * Adds the thread at `pc0` to `q`, following the instructions that consume nothing (in priority order, with
 * the captures they set in `caps`, restored on the way back); code point and match instructions keep a copy.
 */
function addThread(prog: usize, q: usize, pc0: u32, text: usize, len: usize, pos: usize, caps: usize): void {
  const insts = <usize>load<u32>(prog, ProgramHeader.InstCount);
  const nslots = slotCount(prog);
  // At most one entry per instruction for each of: its own visit, a split's second branch, a restore.
  const jobs = jobStack(insts * 3 + 1);
  store<u32>(jobs, pc0);
  let sp: usize = 1;
  while (sp > 0) {
    sp--;
    const pc = load<u32>(jobs + (sp << 3));
    if ((pc & RESTORE) != 0) {
      store<i32>(caps + ((<usize>(pc & ~RESTORE)) << 2), load<i32>(jobs + (sp << 3), 4));
      continue;
    }
    if (queueHas(q, insts, pc)) continue;
    queueInsert(q, insts, pc);
    const inst = prog + ProgramHeader.Size + <usize>pc * 12;
    const op = load<u32>(inst);
    const out = load<u32>(inst, 4);
    const arg = load<u32>(inst, 8);
    const job = jobs + (sp << 3);
    switch (op) {
      case RegexOp.Split:
        store<u32>(job, arg);
        store<u32>(job + 8, out);
        sp += 2;
        break;
      case RegexOp.Nop:
        store<u32>(job, out);
        sp++;
        break;
      case RegexOp.Assert:
        if (assertionHolds(arg, text, len, pos)) {
          store<u32>(job, out);
          sp++;
        }
        break;
      case RegexOp.Look:
        if (lookHolds(prog, prog + <usize>arg, text, len, pos)) {
          store<u32>(job, out);
          sp++;
        }
        break;
      case RegexOp.Save:
        if (<usize>arg < nslots) {
          store<u32>(job, arg | RESTORE);
          store<i32>(job, load<i32>(caps + ((<usize>arg) << 2)), 4);
          store<i32>(caps + ((<usize>arg) << 2), <i32>pos);
          store<u32>(job + 8, out);
          sp += 2;
        } else {
          store<u32>(job, out);
          sp++;
        }
        break;
      case RegexOp.Fail:
        break;
      default:
        memory.copy(queueSlots(q, insts, nslots, pc), caps, nslots << 2);
    }
  }
}

function pikeSearch(prog: usize, text: usize, len: usize, from: usize, slots: usize): bool {
  const insts = <usize>load<u32>(prog, ProgramHeader.InstCount);
  const nslots = slotCount(prog);
  const anchored = (load<u32>(prog, ProgramHeader.Flags) & ProgramFlag.Anchored) != 0;
  const queueSize = queueBytes(insts, nslots);
  const base = scratch(VISITED, queueSize * 2 + (nslots << 2));
  let current = base;
  let next = base + queueSize;
  const caps = next + queueSize;
  store<u32>(current, 0);
  store<u32>(next, 0);
  let matched = false;
  let pos = from;
  while (true) {
    if (load<u32>(current) == 0) {
      if (matched || (anchored && pos != 0)) break;
      pos = nextStart(prog, text, len, pos);
      if (pos > len) break;
    }
    if (!matched && (!anchored || pos == 0)) {
      for (let i: usize = 0; i < nslots; i++) store<i32>(caps + (i << 2), -1);
      store<i32>(caps, <i32>pos);
      addThread(prog, current, load<u32>(prog, ProgramHeader.StartPc), text, len, pos, caps);
    }
    const decoded = decodeAt(text, len, pos);
    const c = <u32>decoded;
    const width = <usize>(decoded >> 32);
    const size = <usize>load<u32>(current);
    for (let i: usize = 0; i < size; i++) {
      const pc = load<u32>(queueDense(current) + (i << 2));
      const inst = prog + ProgramHeader.Size + <usize>pc * 12;
      const op = load<u32>(inst);
      if (op == RegexOp.Match) {
        memory.copy(slots, queueSlots(current, insts, nslots, pc), nslots << 2);
        store<i32>(slots, <i32>pos, 4);
        matched = true;
        // Threads after this one have lower priority: leftmost-first drops them.
        break;
      }
      if (op > <u32>RegexOp.AnyNotNewline || width == 0) continue;
      if (!accepts(prog, op, load<u32>(inst, 8), c)) continue;
      memory.copy(caps, queueSlots(current, insts, nslots, pc), nslots << 2);
      addThread(prog, next, load<u32>(inst, 4), text, len, pos + width, caps);
    }
    const swap = current;
    current = next;
    next = swap;
    store<u32>(next, 0);
    if (width == 0) break;
    pos += width;
  }
  return matched;
}
