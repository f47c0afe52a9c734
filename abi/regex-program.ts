// A Rust pattern as a program for the regex VM in wasm (stdlib-as/regex-vm.ts). The pattern is parsed and
// compiled by re2js (after ./regex.ts's translation, so syntax, errors and Unicode classes are exactly
// `RustRegex`'s); this file only serializes RE2's instructions. Layout (docs/regex.md), little-endian u32s,
// offsets in bytes from the start of the program:
//
//   +0  FORMAT            +4  instruction count    +8  capture groups (not counting the whole match)
//   +12 flags (ANCHORED: only a match at offset 0; NULLABLE: may match empty, so every position is a start)
//   +16 start pc          +20 offset of the names  +24 u32[8]: bit b set when a match can start at lead byte b
//   +56 offset of the one-pass instructions (0: the pattern is not one-pass)
//   +60 offset of the loop table (0: no loop the backtracker can take at once)
//   +64 instructions: (op, out, arg) each
//   then, for a one-pass pattern, the same instructions with each split a OnePassSplit
//   then class records: u32[4] bitmap of the ASCII code points, u32 n, n × (lo, hi) ranges above ASCII
//   then look-around records: u32 LOOK_* flags, u32 n, n × offset of a class record (one code point each)
//   then one-pass split records: u32 pc of the second branch, offsets of the classes of code points that
//     take the first branch and the second, and of the class of the branch that is one code point
//     instruction leading back to the split (`\S+`, `[^"]*`: the VM takes its run in one loop), or 0
//   then the loop table, a word per instruction (0 or the offset of its loop record), and loop records:
//     u32 pc of the loop's instruction, u32 pc of the exit, u32 offset of the class of the exit's first code
//     points (lazy loops), u32 1 for a greedy loop
//   then names: u32 n, n × (u32 group, u32 length, UTF-8 bytes padded to 4), sorted byte-wise by name

import { compileRustPattern, RegexSyntaxError } from './regex.js';
import {
  LookFlag,
  LoopRecord,
  PROGRAM_FORMAT,
  ProgramFlag,
  ProgramHeader,
  RegexAssert,
  RegexOp,
} from './wire/regex-program.js';

/** Code point ranges, inclusive. */
export type CodePointRanges = readonly (readonly [number, number])[];

/**
 * A bounded look-around: whether the code points right before (`behind`) or after the position match
 * `sequence`, one class per code point; `negated` requires that they do not (or that the text ends first).
 */
export interface LookAround {
  behind: boolean;
  negated: boolean;
  sequence: readonly CodePointRanges[];
}

/**
 * Look-around marker: code point `LOOK_AROUND_MARKER + i` in a pattern, standing alone (not in a class, not
 * repeated), is a zero-width `lookArounds[i]` in the program. RE2 has no look-around and reads the marker as
 * a literal; the serializer turns it into a `Look` instruction.
 */
export const LOOK_AROUND_MARKER = 0xf0000;

// re2js's instruction set (build/index.js `Inst`).
const RE2_ALT = 1;
const RE2_ALT_MATCH = 2;
const RE2_CAPTURE = 3;
const RE2_EMPTY_WIDTH = 4;
const RE2_FAIL = 5;
const RE2_MATCH = 6;
const RE2_NOP = 7;
const RE2_RUNE = 8;
const RE2_RUNE1 = 9;
const RE2_RUNE_ANY = 10;
const RE2_RUNE_ANY_NOT_NL = 11;
const RE2_FOLD_CASE = 1;

interface Re2Inst {
  op: number;
  out: number;
  arg: number;
  runes: Int32Array;
}

interface Re2Prog {
  inst: Re2Inst[];
  start: number;
}

/** RE2's one-pass form of a program (re2js `OnePass.compile`): splits carry the code points of each branch. */
interface Re2OnePassInst extends Re2Inst {
  next: Uint32Array | null;
}

/** The compiled program of a Rust pattern. Throws `RegexSyntaxError` with VRL's message when it is invalid. */
export function regexProgram(pattern: string, lookArounds: readonly LookAround[] = []): Uint8Array {
  const re2 = compileRustPattern(pattern).re2Input;
  const prog = re2.prog as Re2Prog;
  // A look-around marker reads as a code point to RE2's one-pass analysis: such programs run the general way.
  const onePass = lookArounds.length === 0 ? (re2.onepass as { inst: Re2OnePassInst[] } | null) : null;
  return new ProgramWriter(prog, lookArounds).write(re2.numSubexp, re2.namedGroups, onePass?.inst);
}

class ProgramWriter {
  private readonly words: number[] = [];
  private readonly classes = new Map<string, number>();

  constructor(
    private readonly prog: Re2Prog,
    private readonly lookArounds: readonly LookAround[],
  ) {}

  write(
    groupCount: number,
    namedGroups: Readonly<Record<string, number>>,
    onePass: readonly Re2OnePassInst[] | undefined,
  ): Uint8Array {
    const insts = this.prog.inst;
    const header = ProgramHeader.Size / 4;
    const tables = header + insts.length * 3;
    this.words.length = tables;
    this.words.fill(0);
    const w = this.words;
    w[ProgramHeader.Format / 4] = PROGRAM_FORMAT;
    w[ProgramHeader.InstCount / 4] = insts.length;
    w[ProgramHeader.GroupCount / 4] = groupCount;
    w[ProgramHeader.StartPc / 4] = this.prog.start;
    insts.forEach((inst, pc) => {
      const [op, arg] = this.instruction(inst);
      w[header + pc * 3] = op;
      w[header + pc * 3 + 1] = inst.out;
      w[header + pc * 3 + 2] = arg;
    });
    if (onePass) {
      const table = this.words.length;
      w[ProgramHeader.OnePass / 4] = table * 4;
      this.words.length += insts.length * 3;
      onePass.forEach((inst, pc) => {
        const at = table + pc * 3;
        if (inst.op === RE2_ALT || inst.op === RE2_ALT_MATCH) {
          w[at] = inst.op === RE2_ALT_MATCH ? RegexOp.OnePassSplitMatch : RegexOp.OnePassSplit;
          w[at + 1] = inst.out;
          w[at + 2] = this.onePassSplit(inst, pc);
        } else {
          w[at] = w[header + pc * 3]!;
          w[at + 1] = w[header + pc * 3 + 1]!;
          w[at + 2] = w[header + pc * 3 + 2]!;
        }
      });
    }
    this.writeLoops();
    const start = this.startSet();
    w[ProgramHeader.Flags / 4] =
      (start.anchored ? ProgramFlag.Anchored : 0) | (start.nullable ? ProgramFlag.Nullable : 0);
    for (let i = 0; i < 8; i++) w[ProgramHeader.FirstBytes / 4 + i] = start.firstBytes[i]!;
    w[ProgramHeader.Names / 4] = w.length * 4;
    const names = Object.entries(namedGroups)
      .map(([name, group]) => [Buffer.from(name, 'utf8'), group] as const)
      .sort(([a], [b]) => Buffer.compare(a, b));
    w.push(names.length);
    for (const [name, group] of names) {
      w.push(group, name.length);
      const padded = Buffer.alloc((name.length + 3) & ~3);
      name.copy(padded);
      for (let i = 0; i < padded.length; i += 4) w.push(padded.readUInt32LE(i));
    }
    return new Uint8Array(Uint32Array.from(w).buffer);
  }

  private instruction(inst: Re2Inst): [RegexOp, number] {
    switch (inst.op) {
      case RE2_ALT:
      case RE2_ALT_MATCH:
        return [RegexOp.Split, inst.arg];
      case RE2_CAPTURE:
        return [RegexOp.Save, inst.arg];
      case RE2_EMPTY_WIDTH:
        return [RegexOp.Assert, inst.arg];
      case RE2_FAIL:
        return [RegexOp.Fail, 0];
      case RE2_MATCH:
        return [RegexOp.Match, 0];
      case RE2_NOP:
        return [RegexOp.Nop, 0];
      case RE2_RUNE_ANY:
        return [RegexOp.Any, 0];
      case RE2_RUNE_ANY_NOT_NL:
        return [RegexOp.AnyNotNewline, 0];
      case RE2_RUNE1: {
        const c = inst.runes[0]!;
        const look = c - LOOK_AROUND_MARKER;
        if (look >= 0 && look < this.lookArounds.length)
          return [RegexOp.Look, this.lookAround(this.lookArounds[look]!)];
        return [RegexOp.Char, c];
      }
      case RE2_RUNE:
        return [RegexOp.Class, this.classRecord(runeRanges(inst))];
    }
    throw new Error(`regex program: unknown RE2 instruction ${inst.op}`);
  }

  /** Offset of the record of a class (shared by equal classes). */
  private classRecord(ranges: CodePointRanges): number {
    const key = ranges.map(([lo, hi]) => `${lo}-${hi}`).join(',');
    let offset = this.classes.get(key);
    if (offset !== undefined) return offset;
    offset = this.words.length * 4;
    const ascii = [0, 0, 0, 0];
    const above: number[] = [];
    for (const [lo, hi] of ranges) {
      for (let c = lo; c <= Math.min(hi, 0x7f); c++) ascii[c >> 5] |= 1 << (c & 31);
      if (hi >= 0x80) above.push(Math.max(lo, 0x80), hi);
    }
    this.words.push(...ascii, above.length / 2, ...above);
    this.classes.set(key, offset);
    return offset;
  }

  /**
   * The record of the one-pass split at `pc`: which code points go to `out`, which to `arg` (RE2's `next`
   * per range), and which branch, if any, is a loop of one code point instruction back to the split.
   */
  private onePassSplit(inst: Re2OnePassInst, pc: number): number {
    const toOut: [number, number][] = [];
    const toArg: [number, number][] = [];
    for (let i = 0; i < inst.runes.length; i += 2) {
      (inst.next![i / 2] === inst.out ? toOut : toArg).push([inst.runes[i]!, inst.runes[i + 1]!]);
    }
    const classes = [this.classRecord(toOut), this.classRecord(toArg)];
    const header = ProgramHeader.Size / 4;
    const loops = (target: number) => {
      const op = this.words[header + target * 3]!;
      return op >= RegexOp.Class && op <= RegexOp.AnyNotNewline && this.words[header + target * 3 + 1] === pc;
    };
    const loop = loops(inst.out) ? classes[0]! : loops(inst.arg) ? classes[1]! : 0;
    const offset = this.words.length * 4;
    this.words.push(inst.arg, ...classes, loop);
    return offset;
  }

  /**
   * The loop table and records (`LoopRecord`): splits the backtracker can take at once because the exit
   * cannot start where the loop goes on (greedy), or moves past where the exit cannot start (lazy). `[^"]*"`
   * and `(?s:.)*?"` of the access-log patterns were a job and a visit per code point.
   */
  private writeLoops(): void {
    const insts = this.prog.inst;
    const records: Array<[pc: number, loop: number, exit: number, greedy: boolean, first: CodePointRanges]> = [];
    insts.forEach((inst, pc) => {
      if (inst.op !== RE2_ALT) return;
      const loops = (target: number) => this.consumed(insts[target]!) !== undefined && insts[target]!.out === pc;
      const greedy = loops(inst.out);
      if (!greedy && !loops(inst.arg)) return;
      const [loop, exit] = greedy ? [inst.out, inst.arg] : [inst.arg, inst.out];
      const first = this.firstConsumed(exit);
      if (first === undefined) return;
      if (greedy && overlaps(this.consumed(insts[loop]!)!, first)) return;
      records.push([pc, loop, exit, greedy, first]);
    });
    if (records.length === 0) return;
    const table = this.words.length;
    this.words.push(...new Array<number>(insts.length).fill(0));
    this.words[ProgramHeader.Loops / 4] = table * 4;
    for (const [pc, loop, exit, greedy, first] of records) {
      const firstClass = greedy ? 0 : this.classRecord(merged(first));
      const record = this.words.length;
      this.words[table + pc] = record * 4;
      this.words[record + LoopRecord.LoopPc / 4] = loop;
      this.words[record + LoopRecord.ExitPc / 4] = exit;
      this.words[record + LoopRecord.ExitFirst / 4] = firstClass;
      this.words[record + LoopRecord.Greedy / 4] = greedy ? 1 : 0;
    }
  }

  /** The code points an instruction of one code point accepts; undefined for any other instruction. */
  private consumed(inst: Re2Inst): CodePointRanges | undefined {
    switch (inst.op) {
      case RE2_RUNE:
        return runeRanges(inst);
      case RE2_RUNE1: {
        const look = inst.runes[0]! - LOOK_AROUND_MARKER;
        return look >= 0 && look < this.lookArounds.length ? undefined : [[inst.runes[0]!, inst.runes[0]!]];
      }
      case RE2_RUNE_ANY:
        return [[0, 0x10ffff]];
      case RE2_RUNE_ANY_NOT_NL:
        return [
          [0, 9],
          [11, 0x10ffff],
        ];
    }
    return undefined;
  }

  /** The code points the instructions from `pc` can consume first; undefined when they can also match,
   * assert or look around before consuming one (then nothing is certain about where they can start). */
  private firstConsumed(pc: number): CodePointRanges | undefined {
    const insts = this.prog.inst;
    const ranges: Array<readonly [number, number]> = [];
    const seen = new Set<number>();
    const stack = [pc];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      const inst = insts[at]!;
      const consumed = this.consumed(inst);
      if (consumed !== undefined) {
        ranges.push(...consumed);
        continue;
      }
      switch (inst.op) {
        case RE2_ALT:
        case RE2_ALT_MATCH:
          stack.push(inst.out, inst.arg);
          break;
        case RE2_CAPTURE:
        case RE2_NOP:
          stack.push(inst.out);
          break;
        case RE2_FAIL:
          break;
        default:
          return undefined;
      }
    }
    return ranges;
  }

  private lookAround(look: LookAround): number {
    const classes = look.sequence.map((ranges) => this.classRecord(ranges));
    const offset = this.words.length * 4;
    this.words.push(
      (look.behind ? LookFlag.Behind : 0) | (look.negated ? LookFlag.Negated : 0),
      classes.length,
      ...classes,
    );
    return offset;
  }

  /**
   * Where a match can start: the lead bytes of the code points the instructions reachable from the start
   * without consuming input accept. `nullable` when the match instruction is among those (an empty match
   * can start anywhere); `anchored` when every path first asserts the start of the text.
   */
  private startSet(): { anchored: boolean; nullable: boolean; firstBytes: number[] } {
    const insts = this.prog.inst;
    const firstBytes = [0, 0, 0, 0, 0, 0, 0, 0];
    const seen = new Set<number>();
    let nullable = false;
    let anchored = true;
    const addRange = (lo: number, hi: number) => {
      for (let b = 0; b < 0xf5; b++) {
        const range = leadByteRange(b);
        if (range && range[0] <= hi && range[1] >= lo) firstBytes[b >> 5]! |= 1 << (b & 31);
      }
    };
    // Depth-first over the instructions before the first code point; `atStart` when \A was asserted on the way.
    const stack: [number, boolean][] = [[this.prog.start, false]];
    while (stack.length > 0) {
      const [pc, atStart] = stack.pop()!;
      if (seen.has(pc * 2 + (atStart ? 1 : 0))) continue;
      seen.add(pc * 2 + (atStart ? 1 : 0));
      const inst = insts[pc]!;
      const [op] = this.instruction(inst);
      switch (op) {
        case RegexOp.Split:
          stack.push([inst.out, atStart], [inst.arg, atStart]);
          break;
        case RegexOp.Assert:
          stack.push([inst.out, atStart || (inst.arg & RegexAssert.BeginText) !== 0]);
          break;
        case RegexOp.Save:
        case RegexOp.Nop:
        case RegexOp.Look:
          stack.push([inst.out, atStart]);
          break;
        case RegexOp.Match:
          nullable = true;
          anchored &&= atStart;
          break;
        case RegexOp.Fail:
          break;
        default:
          anchored &&= atStart;
          if (op === RegexOp.Char) addRange(inst.runes[0]!, inst.runes[0]!);
          else if (op === RegexOp.Any) addRange(0, 0x10ffff);
          else if (op === RegexOp.AnyNotNewline) {
            addRange(0, 0x09);
            addRange(0x0b, 0x10ffff);
          } else {
            const record = this.instruction(inst)[1] / 4;
            const ascii = this.words.slice(record, record + 4);
            for (let i = 0; i < 4; i++) firstBytes[i]! |= ascii[i]!;
            const n = this.words[record + 4]!;
            for (let i = 0; i < n; i++) addRange(this.words[record + 5 + 2 * i]!, this.words[record + 6 + 2 * i]!);
          }
      }
    }
    return { anchored, nullable, firstBytes: firstBytes.map((word) => word >>> 0) };
  }
}

/** Ranges sorted and merged where they overlap or touch (as class records hold them, for a binary search). */
function merged(ranges: CodePointRanges): CodePointRanges {
  const out: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Whether two sets of code point ranges share a code point. */
function overlaps(a: CodePointRanges, b: CodePointRanges): boolean {
  return a.some(([lo, hi]) => b.some(([otherLo, otherHi]) => lo <= otherHi && otherLo <= hi));
}

/** The code points whose UTF-8 encoding starts with byte `b` (none for continuation bytes). */
function leadByteRange(b: number): [number, number] | undefined {
  if (b < 0x80) return [b, b];
  if (b < 0xc2) return undefined;
  if (b < 0xe0) return [(b & 0x1f) << 6, ((b & 0x1f) << 6) | 0x3f];
  if (b < 0xf0) return [(b & 0x0f) << 12, ((b & 0x0f) << 12) | 0xfff];
  return [(b & 0x07) << 18, ((b & 0x07) << 18) | 0x3ffff];
}

const foldOrbits = new Map<number, CodePointRanges>();

/**
 * The code points a single-rune instruction matches: with RE2's fold-case flag, its whole simple case
 * folding orbit (`(?i)k` matches K, k and U+212A). RE2's parser computes the orbit for a class, but turns a
 * one-rune class back into a fold-case literal; the complement of the negated class is the orbit.
 */
function caseFoldOrbit(c: number, foldCase: boolean): CodePointRanges {
  if (!foldCase) return [[c, c]];
  let orbit = foldOrbits.get(c);
  if (orbit === undefined) {
    const prog = compileRustPattern(`(?i)[^\\x{${c.toString(16)}}]`).re2Input.prog as Re2Prog;
    const runes = prog.inst.find((i) => i.op === RE2_RUNE)!.runes;
    const ranges: [number, number][] = [];
    let next = 0;
    for (let i = 0; i < runes.length; i += 2) {
      if (runes[i]! > next) ranges.push([next, runes[i]! - 1]);
      next = runes[i + 1]! + 1;
    }
    if (next <= 0x10ffff) ranges.push([next, 0x10ffff]);
    orbit = ranges;
    foldOrbits.set(c, orbit);
  }
  return orbit;
}

/** The code points a RUNE instruction accepts. */
function runeRanges(inst: Re2Inst): CodePointRanges {
  const runes = inst.runes;
  if (runes.length === 1) return caseFoldOrbit(runes[0]!, (inst.arg & RE2_FOLD_CASE) !== 0);
  const ranges: [number, number][] = [];
  for (let i = 0; i < runes.length; i += 2) ranges.push([runes[i]!, runes[i + 1]!]);
  return ranges;
}

/**
 * The code points a pattern of one code point matches (a literal, an escape, a bracket class, `.`): what a
 * bounded look-around checks at each place (runtime/js-functions/support/grok-look-around.ts).
 */
export function codePointRanges(pattern: string): CodePointRanges {
  const inst = (compileRustPattern(pattern).re2Input.prog as Re2Prog).inst.find((i) => i.op >= RE2_RUNE);
  if (inst === undefined) throw new RegexSyntaxError(`regex parse error: not one character: ${pattern}`);
  if (inst.op === RE2_RUNE_ANY) return [[0, 0x10ffff]];
  if (inst.op === RE2_RUNE_ANY_NOT_NL)
    return [
      [0, 9],
      [11, 0x10ffff],
    ];
  return inst.op === RE2_RUNE1 ? [[inst.runes[0]!, inst.runes[0]!]] : runeRanges(inst);
}

/** Capture groups of a program, not counting the whole match (its slots: 2 × (count + 1)). */
export function programGroupCount(program: Uint8Array): number {
  return new DataView(program.buffer, program.byteOffset, program.byteLength).getUint32(ProgramHeader.GroupCount, true);
}
