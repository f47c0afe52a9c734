// Batches of encoded events (docs/abi.md §2) and the module's runtime state (§5). Shared by tsc and asc
// (see values.ts).

/** The module ABI (docs/abi.md): written into batch headers and a module's `svc` custom section. */
export const ABI_VERSION = 6;

/** "SVCB", the first four bytes of a batch, as a little-endian u32. */
export const BATCH_MAGIC = 0x42435653;
/** Bytes of a batch header: magic, u16 ABI version, u16 flags, u32 record count; the records follow. */
export const BATCH_HEADER_SIZE = 12;
/** Byte offsets of the header's fields after the magic. */
export const enum BatchHeaderField {
  Version = 4,
  Flags = 6,
  Count = 8,
}

/** A record's kind byte. */
export const enum EventKind {
  Log = 0,
  Metric = 1,
  Trace = 2,
}

/** How the program ended for an event: an output record's outcome byte. */
export const enum Outcome {
  Kept = 0,
  Error = 1,
  Aborted = 2,
  /** Reserved for the pipeline (filtered or routed away). */
  Dropped = 3,
}

/** Flags of `run_batch` input (echoed in its output). */
export const enum BatchFlag {
  /** Append the program's result value to each kept record. */
  RESULTS = 1,
  /** A kept record holds the target as the program left it, without the emission rules. */
  RAW = 2,
}

/** Flags of `run_chain` and `run_framed` (docs/abi.md §2.1). */
export const enum ChainFlag {
  /** Forward the original record of an event whose program hit a runtime error. */
  KEEP_ON_ERROR = 1,
  /** Forward the original record of an event whose program aborted. */
  KEEP_ON_ABORT = 2,
  /** `run_framed` only: failures carry the event as it was decoded, as an input record (for `reroute_dropped`). */
  FAILED_RECORDS = 4,
  /**
   * `run_framed` only: the program is a condition (compiled with `condition`): an event whose result is true
   * goes out as it was decoded, the others are dropped (a failed condition as a failure without its record).
   */
  CONDITION = 8,
  /**
   * `run_framed` only: the program replaces the event before it reads any field the decoder's stamp adds
   * (`ModuleInfo.eventReplacedAfterReading`), so log events are decoded without the stamp, and only those
   * that go out as they were decoded (kept or rerouted failures, events a condition holds for) get it.
   */
  LATE_STAMP = 16,
}

/** Flags of `run_ndjson` (docs/abi.md §3). */
export const enum NdjsonFlag {
  /** Print `.` instead of the program's result. */
  PRINT_OBJECT = 1,
  /** Print the emitted events as JSON, one line each. */
  JSON = 2,
}

/**
 * The module's runtime state (`runtime_state`, docs/abi.md §5): u32 fields by byte offset. The runtime writes the
 * memory limit; the module writes the rest.
 */
export const enum RuntimeState {
  /** Memory limit in 64 KiB pages (0: the 65,536 pages of a wasm32 memory). */
  LimitPages = 0,
  /** Index of the record or line a driver is running (NOT_RUNNING before the first). */
  Running = 4,
  /** `TrapCause` of the last trap the module raised itself. */
  TrapCause = 8,
  Size = 12,
}

/** `RuntimeState.Running` before a driver reaches its first record (u32 max). */
export const NOT_RUNNING = 0xffffffff;

/** Why the module trapped (the runtime turns it into the event's error message). */
export const enum TrapCause {
  None = 0,
  /** The memory would grow past the limit the runtime set. */
  MemoryLimit = 1,
  /** More than the 4 GiB a wasm32 memory can address. */
  AddressSpace = 2,
  /** The engine refused to grow the memory (the process is out of memory). */
  GrowRefused = 3,
}
