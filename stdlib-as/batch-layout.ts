// The batch header (docs/abi.md §2), shared by the program drivers (run.ts) and the codec module.

export const BATCH_HEADER_SIZE: usize = 12;

/** Event kinds: a record's kind byte (abi/batch.ts's EVENT_KINDS). */
export const enum EventKind {
  Log = 0,
  Metric = 1,
  Trace = 2,
}
/** The ABI version (docs/abi.md), written into batch headers; abi/batch.ts's ABI_VERSION. */
export const BATCH_VERSION: u16 = 5;

/** Writes "SVCB", the version, `flags` and `count` at `header`. */
export function writeBatchHeader(header: usize, flags: u16, count: u32): void {
  store<u32>(header, 0x42435653); // "SVCB"
  store<u16>(header, BATCH_VERSION, 4);
  store<u16>(header, flags, 6);
  store<u32>(header, count, 8);
}
