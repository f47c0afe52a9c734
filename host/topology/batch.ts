// A batch as components hand it on: the bytes of an SVCB input batch (docs/abi.md §2) and its record
// count. The bytes are never decoded here; buffers and metrics only need the count and the byte size.
// Between a source and the one remap transform it feeds, a batch may instead be the source's frames, still
// undecoded; between a remap transform and the one sink it feeds, the sink's encoding of the events. The
// transform's worker then decodes, runs and encodes in one call (host/README.md).

import type { DecodeOptions } from '../../runtime/engine.js';
import { BATCH_HEADER_SIZE } from '../../abi/batch.js';

export type EventKind = 'log' | 'metric' | 'trace';

export interface EventBatch {
  /** An SVCB input batch (or frames, or encoded events: see below); owns its ArrayBuffer when it crosses to a
   * worker (transferred, not copied). */
  readonly bytes: Uint8Array;
  /** Number of records (events), as in the batch header; for frames, the number of frames. */
  readonly count: number;
  /** Set when `bytes` are a source's whole frames: how to decode them (the consumer does). */
  readonly frames?: DecodeOptions;
  /** Set when `bytes` are the events encoded and framed as the consuming sink encodes them. */
  readonly encoded?: boolean;
  /** The source component the events came from (Vector's `source_id` event metadata), tracked only for the
   * `source` tag of `telemetry.tags.emit_source`. */
  readonly sourceId?: string;
  /** Set when the source waits for the sinks to acknowledge these events (end-to-end acknowledgements). The
   * batch object is one reference to it: whoever holds the batch passes it on or releases it. */
  readonly finalizer?: BatchNotifier;
  /** Names the batch to a transform that keeps events (`TransformDefinition.flushPeriodMs`), when it has a
   * finalizer: the finalizer stays on the main thread, and the runner's result says by ticket which inputs'
   * events each output holds and which inputs it keeps events of (`TransformResult`). */
  readonly ticket?: number;
}

/** ArrayBuffers a worker handed to this thread, each the whole bytes of one batch and viewed by nothing else. */
const handedOver = new WeakSet<ArrayBuffer>();

/** Marks `bytes` (a whole ArrayBuffer a worker transferred here, carried by one batch alone) as freeable by the
 * consumer that finishes with its batch (`releaseBytes`). */
export function handOver(bytes: Uint8Array): void {
  handedOver.add(bytes.buffer as ArrayBuffer);
}

/**
 * Frees a batch's bytes now when they are a buffer a worker handed over (else does nothing): the consumer is
 * done with them. Left to the garbage collector, such buffers outlive two young collections while queued on a
 * busy pipeline, are promoted and wait for a major collection: tens of MB of dead batches. Detached, their
 * memory goes with the next young collection.
 */
export function releaseBytes(batch: EventBatch): void {
  const buffer = batch.bytes.buffer as ArrayBuffer;
  if (handedOver.delete(buffer)) structuredClone(buffer, { transfer: [buffer] });
}

/** Vector's batch status: `rejected` outranks `errored`, which outranks `delivered`. */
export type BatchStatus = 'delivered' | 'errored' | 'rejected';

const RANK: Record<BatchStatus, number> = { delivered: 0, errored: 1, rejected: 2 };

/**
 * Vector's BatchNotifier: one per batch a source sends with acknowledgements, however many batches its events
 * end up in downstream. Each batch carrying it is a reference; `done` is called once with the worst status
 * when the last reference is released.
 */
export class BatchNotifier {
  private references = 1;
  private status: BatchStatus = 'delivered';

  constructor(private readonly done: (status: BatchStatus) => void) {}

  /** `count` more batches carry it. */
  hold(count = 1): void {
    this.references += count;
  }

  /** One batch carrying it is finished with: delivered, given up on (`errored`), or refused (`rejected`). */
  release(status: BatchStatus = 'delivered'): void {
    if (RANK[status] > RANK[this.status]) this.status = status;
    if (--this.references === 0) this.done(this.status);
    else if (this.references < 0) throw new Error('a batch finalizer was released more often than held');
  }
}

/** The finalizer of a batch holding the events of batches with these finalizers (a transform merged them):
 * one more reference to each, released with the batch's status. */
export function joinFinalizers(finalizers: readonly BatchNotifier[]): BatchNotifier | undefined {
  for (const finalizer of finalizers) finalizer.hold();
  if (finalizers.length <= 1) return finalizers[0];
  return new BatchNotifier((status) => {
    for (const finalizer of finalizers) finalizer.release(status);
  });
}

/** The record count of an SVCB batch, read from its header. */
function batchCount(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
}

export function toBatch(bytes: Uint8Array): EventBatch {
  return { bytes, count: batchCount(bytes) };
}

/** Splits a batch into batches of at most `max` records each (byte copies of record runs, no decoding). */
export function splitBatch(batch: EventBatch, max: number): EventBatch[] {
  if (batch.count <= max) return [batch];
  const bytes = batch.bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: EventBatch[] = [];
  let start = BATCH_HEADER_SIZE;
  let at = BATCH_HEADER_SIZE;
  let count = 0;
  const cut = () => {
    const part = new Uint8Array(BATCH_HEADER_SIZE + at - start);
    part.set(bytes.subarray(0, BATCH_HEADER_SIZE));
    part.set(bytes.subarray(start, at), BATCH_HEADER_SIZE);
    new DataView(part.buffer).setUint32(8, count, true);
    parts.push({ bytes: part, count });
    start = at;
    count = 0;
  };
  for (let record = 0; record < batch.count; record++) {
    at += 4 + view.getUint32(at, true);
    if (++count === max) cut();
  }
  if (count > 0) cut();
  return parts;
}

/** One batch holding the records of `batches` (at least one) in order; their headers agree but for the count. */
export function concatBatches(batches: readonly EventBatch[]): EventBatch {
  if (batches.length === 0) throw new Error('concatBatches needs at least one batch');
  if (batches.length === 1) return batches[0]!;
  const size = batches.reduce((total, batch) => total + batch.bytes.byteLength - BATCH_HEADER_SIZE, BATCH_HEADER_SIZE);
  const bytes = new Uint8Array(size);
  let at = BATCH_HEADER_SIZE;
  let count = 0;
  for (const batch of batches) {
    if (at === BATCH_HEADER_SIZE) bytes.set(batch.bytes.subarray(0, BATCH_HEADER_SIZE));
    bytes.set(batch.bytes.subarray(BATCH_HEADER_SIZE), at);
    at += batch.bytes.byteLength - BATCH_HEADER_SIZE;
    count += batch.count;
  }
  new DataView(bytes.buffer).setUint32(8, count, true);
  return { bytes, count };
}
