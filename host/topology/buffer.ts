// The bounded queue of batches in front of a transform or sink (Vector's memory buffer). Its limit counts
// events; a batch larger than the limit is still taken when the queue is empty, so nothing deadlocks.
// `block` makes producers wait (backpressure all the way to the sources); `drop_newest` drops the batch that
// does not fit and reports it.

import type { EventBatch } from './batch.js';

type WhenFull = 'block' | 'drop_newest';

export interface BufferLimits {
  maxEvents: number;
  /** Byte limit, when configured (`buffer.max_size`). */
  maxBytes?: number;
  whenFull: WhenFull;
}

export interface BufferObserver {
  /** A batch entered the queue, which now holds `events` events in `bytes` bytes. */
  pushed?(batch: EventBatch, events: number, bytes: number): void;
  /** A batch left the queue, which now holds `events` events in `bytes` bytes. */
  popped?(batch: EventBatch, events: number, bytes: number): void;
  /** A batch dropped because the queue was full (`drop_newest`). */
  dropped?(batch: EventBatch): void;
}

export class BatchBuffer {
  private readonly queue: EventBatch[] = [];
  private head = 0;
  private events = 0;
  private bytes = 0;
  private closed = false;

  /** Closed: takes no more batches (its consumer drains what it holds). */
  get isClosed(): boolean {
    return this.closed;
  }
  /** Pushes begun (before `close`) and not yet queued: the consumer waits for them. */
  private pushing = 0;
  /** `interrupt` was called while nothing was queued: the next `pop` returns at once. */
  private interrupted = false;
  /** Producers waiting for room, in arrival order. */
  private readonly waitingForRoom: Array<() => void> = [];
  /** The consumer waiting for a batch. */
  private waitingForBatch: (() => void) | undefined;

  constructor(
    private bufferLimits: BufferLimits,
    private readonly observer: BufferObserver = {},
  ) {}

  get limits(): BufferLimits {
    return this.bufferLimits;
  }

  /** New limits (a reloaded sink's `buffer`); producers waiting for room try again. */
  resize(limits: BufferLimits): void {
    this.bufferLimits = limits;
    for (const wake of this.waitingForRoom.splice(0)) wake();
  }

  get eventCount(): number {
    return this.events;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** Queues a batch; with `block`, resolves only once there is room. Pushing after `close` is a bug; a push
   * begun before it still lands (the consumer waits for it). */
  async push(batch: EventBatch): Promise<void> {
    if (this.closed) throw new Error('push into a closed buffer');
    this.pushing++;
    try {
      while (!this.fits(batch)) {
        if (this.limits.whenFull === 'drop_newest') {
          this.observer.dropped?.(batch);
          return;
        }
        await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
      }
      this.queue.push(batch);
      this.events += batch.count;
      this.bytes += batch.bytes.byteLength;
      this.observer.pushed?.(batch, this.events, this.bytes);
    } finally {
      this.pushing--;
      this.wakeConsumer();
    }
  }

  /** The next batch, or undefined once the buffer is closed and empty (or, once, after `interrupt`). */
  async pop(): Promise<EventBatch | undefined> {
    while (this.head === this.queue.length) {
      if ((this.closed && this.pushing === 0) || this.interrupted) {
        this.interrupted = false;
        return undefined;
      }
      await new Promise<void>((resolve) => (this.waitingForBatch = resolve));
    }
    this.interrupted = false;
    return this.take();
  }

  /** The next batch if one is queued now, without waiting. */
  popQueued(): EventBatch | undefined {
    return this.head === this.queue.length ? undefined : this.take();
  }

  private take(): EventBatch {
    const batch = this.queue[this.head]!;
    this.queue[this.head++] = undefined as unknown as EventBatch;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.events -= batch.count;
    this.bytes -= batch.bytes.byteLength;
    this.observer.popped?.(batch, this.events, this.bytes);
    this.waitingForRoom.shift()?.();
    return batch;
  }

  /** No more pushes: the consumer drains what is queued, then `pop` returns undefined. */
  close(): void {
    this.closed = true;
    this.wakeConsumer();
  }

  /** Wakes the consumer: a `pop` waiting on an empty buffer (or the next one) returns undefined although the
   * buffer is open, so it can look at what changed (a reload swapped its sink). */
  interrupt(): void {
    this.interrupted = true;
    this.wakeConsumer();
  }

  private fits(batch: EventBatch): boolean {
    if (this.head === this.queue.length) return true;
    if (this.events + batch.count > this.limits.maxEvents) return false;
    return this.limits.maxBytes === undefined || this.bytes + batch.bytes.byteLength <= this.limits.maxBytes;
  }

  private wakeConsumer(): void {
    const wake = this.waitingForBatch;
    this.waitingForBatch = undefined;
    wake?.();
  }
}
