// Compiled regex programs (layout in abi/regex-program.ts and docs/regex.md): written by abi/regex-program.ts,
// run by stdlib-as/regex-vm.ts. Shared by tsc and asc (see values.ts).

/** The program format, the first word of a program. */
export const PROGRAM_FORMAT = 2;

/** Byte offsets of the header's u32 words. */
export const enum ProgramHeader {
  Format = 0,
  InstCount = 4,
  /** Capture groups, not counting the whole match. */
  GroupCount = 8,
  Flags = 12,
  StartPc = 16,
  /** Offset of the names. */
  Names = 20,
  /** u32[8]: bit b set when a match can start at lead byte b. */
  FirstBytes = 24,
  /** Offset of the one-pass instructions (0: the pattern is not one-pass). */
  OnePass = 56,
  /** Offset of the loop table, a word per instruction: 0, or the offset of the loop record of a split (0: none). */
  Loops = 60,
  /** The instructions follow the header. */
  Size = 64,
}

export const enum ProgramFlag {
  /** Only a match at offset 0. */
  Anchored = 1,
  /** May match empty, so every position is a start. */
  Nullable = 2,
}

/** The VM's instructions (`out` is the next pc; `arg` depends on the op). */
export const enum RegexOp {
  Match = 0,
  /** `arg`: offset of a class record. */
  Class = 1,
  /** `arg`: the code point. */
  Char = 2,
  Any = 3,
  AnyNotNewline = 4,
  /** Try `out` first, then `arg` (leftmost-first priority). */
  Split = 5,
  /** `arg`: capture slot (2 × group, +1 for the end) set to the position. */
  Save = 6,
  /** `arg`: RegexAssert flags that must all hold at the position. */
  Assert = 7,
  Nop = 8,
  Fail = 9,
  /** `arg`: offset of a look-around record. */
  Look = 10,
  /**
   * Only in the one-pass instructions (a split where the next code point decides the branch): `arg` is the
   * offset of a one-pass split record; a code point in neither class fails.
   */
  OnePassSplit = 11,
  /** OnePassSplit whose first branch matches when no code point (or the end of the text) decides. */
  OnePassSplitMatch = 12,
}

/** RE2's empty-width flags, kept as they are. */
export const enum RegexAssert {
  BeginLine = 1,
  EndLine = 2,
  BeginText = 4,
  EndText = 8,
  WordBoundary = 16,
  NotWordBoundary = 32,
}

/**
 * A loop record (`ProgramHeader.Loops`): a split whose one branch is an instruction of one code point leading
 * back to it, and whose other branch (the exit) must first consume a code point, from a set the loop's
 * differs from. u32 words at these byte offsets.
 */
export const enum LoopRecord {
  /** The instruction of one code point. */
  LoopPc = 0,
  ExitPc = 4,
  /** Greedy (loop first): the exit cannot start where the loop goes on, so the loop takes its whole run. Lazy
   * (exit first): offset of the class record of the exit's first code points; where the loop goes on and the
   * exit cannot start, the split moves on without trying the exit. */
  ExitFirst = 8,
  Greedy = 12,
}

/** Flags of a look-around record. */
export const enum LookFlag {
  Behind = 1,
  Negated = 2,
}
