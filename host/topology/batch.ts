// A batch as components hand it on: the bytes of an SVCB input batch (docs/abi.md §2) and its record
// count. The bytes are never decoded here; buffers and metrics only need the count and the byte size.

export type EventKind = 'log' | 'metric' | 'trace';

export interface EventBatch {
  /** An SVCB input batch; owns its ArrayBuffer when it crosses to a worker (transferred, not copied). */
  readonly bytes: Uint8Array;
  /** Number of records (events), as in the batch header. */
  readonly count: number;
}

/** The record count of an SVCB batch, read from its header. */
export function batchCount(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
}

export function toBatch(bytes: Uint8Array): EventBatch {
  return { bytes, count: batchCount(bytes) };
}
