// Vector's sink batching (`batch.max_events`, `batch.max_bytes`, `batch.timeout_secs`): incoming batches
// gather into outgoing ones that are flushed when full or when the oldest event has waited `timeout`.
// Sizes are the events' encoded size in the batch (Vector: "before they are serialized"). A batch that
// does not fit is split record by record; whole batches are kept as they are, never copied.

import { BATCH_HEADER_SIZE } from '../../../abi/batch.js';
import { BatchReader, BatchWriter } from '../../../runtime/engine.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';

export interface BatchLimits {
  maxEvents: number;
  maxBytes: number;
  timeoutMs: number;
}

/** The zod-parsed `batch` options of a sink, as limits. */
export function batchLimits(options: { max_events?: number; max_bytes?: number; timeout_secs: number }): BatchLimits {
  return {
    maxEvents: options.max_events ?? Number.POSITIVE_INFINITY,
    maxBytes: options.max_bytes ?? Number.POSITIVE_INFINITY,
    timeoutMs: options.timeout_secs * 1000,
  };
}

/** Size of a batch's events: its bytes without the header. */
const eventBytes = (batch: EventBatch) => batch.bytes.length - BATCH_HEADER_SIZE;

export class Batcher {
  private parts: EventBatch[] = [];
  private events = 0;
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Flushes run one after another, in order. */
  private flushing: Promise<void> = Promise.resolve();
  /** `add` calls under way (a batch split over outgoing ones is added across flushes). */
  private adding = 0;

  /** `flush` gets the parts of one outgoing batch, in order; the batcher waits for it before the next. */
  constructor(
    private readonly limits: BatchLimits,
    private readonly flush: (parts: EventBatch[], events: number) => Promise<void>,
  ) {}

  /** Adds a batch; resolves once every outgoing batch it completed was handed to `flush`. A batch split
   * across outgoing ones passes its finalizer to each part. */
  async add(batch: EventBatch): Promise<void> {
    this.adding++;
    try {
      await this.gather(batch);
    } finally {
      this.adding--;
    }
  }

  private async gather(batch: EventBatch): Promise<void> {
    if (batch.count === 0) {
      batch.finalizer?.release();
      return;
    }
    if (this.fits(batch.count, eventBytes(batch))) {
      this.append(batch);
    } else {
      const { finalizer } = batch;
      const part = (bytes: Uint8Array): EventBatch => {
        finalizer?.hold();
        return { ...toBatch(bytes), finalizer };
      };
      let writer = new BatchWriter();
      let writerBytes = 0;
      for (const { record } of new BatchReader(batch.bytes)) {
        if (!this.fits(writer.count + 1, writerBytes + record.length) && (writer.count > 0 || this.events > 0)) {
          if (writer.count > 0) this.append(part(writer.finish()));
          await this.flushOpen();
          writer = new BatchWriter();
          writerBytes = 0;
        }
        writer.appendRaw(record);
        writerBytes += record.length;
      }
      if (writer.count > 0) this.append(part(writer.finish()));
      finalizer?.release();
    }
    if (this.events >= this.limits.maxEvents || this.bytes >= this.limits.maxBytes) await this.flushOpen();
  }

  /** Nothing is gathered (what was is flushed) and no batch is being added. */
  get isEmpty(): boolean {
    return this.parts.length === 0 && this.adding === 0;
  }

  /** Flushes what is gathered and waits for every flush. */
  async close(): Promise<void> {
    await this.flushOpen();
    await this.flushing;
  }

  private fits(events: number, bytes: number): boolean {
    return this.events + events <= this.limits.maxEvents && this.bytes + bytes <= this.limits.maxBytes;
  }

  private append(batch: EventBatch): void {
    if (this.parts.length === 0) this.timer = setTimeout(() => void this.flushOpen(), this.limits.timeoutMs);
    this.parts.push(batch);
    this.events += batch.count;
    this.bytes += eventBytes(batch);
  }

  private flushOpen(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.parts.length > 0) {
      const parts = this.parts;
      const events = this.events;
      this.parts = [];
      this.events = 0;
      this.bytes = 0;
      this.flushing = this.flushing.then(() => this.flush(parts, events));
    }
    return this.flushing;
  }
}
