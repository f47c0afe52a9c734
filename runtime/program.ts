// A compiled remap program as the library API hands it out (../shared/conformance/README.md): `run` on one
// JS event, batch and NDJSON entry points for its callers, and the compiler's warnings.

import { BatchFlag, decodeOutput, encodeBatch, type EventKind } from '../abi/batch.js';
import type { NdjsonOutput, RemapInstance } from './module.js';
import type { OutputOptions } from './arena.js';
import type { RemapValue } from '../abi/values.js';
import type { Diagnostic } from '../compiler/index.js';

/** A runtime error or `abort`: the message is VRL's text; `event` is the event as it was when it stopped. */
export class RemapRuntimeError extends Error {
  override name = 'RemapRuntimeError';

  constructor(
    message: string,
    readonly event: RemapValue,
  ) {
    super(message);
  }
}

export class Program {
  constructor(
    private readonly instance: Pick<RemapInstance, 'runBatch' | 'runNdjson' | 'memoryBytes'>,
    /** Compile warnings (E620, E801, E900). */
    readonly warnings: readonly Diagnostic[] = [],
  ) {}

  /**
   * Runs the program on a copy of `event`; throws `RemapRuntimeError` on a runtime error or `abort`. A
   * `metric` event is Vector's native metric object: the program sees its VRL view and the event returned
   * is the metric with the changes Vector allows (docs/abi.md §2.3).
   */
  run(event: unknown, kind: EventKind = 'log'): { result: RemapValue; event: RemapValue } {
    const flags = BatchFlag.RESULTS | BatchFlag.RAW;
    // Decoding copies what it keeps: the output need not be copied first.
    const [record] = decodeOutput(this.instance.runBatch(encodeBatch([{ kind, event }], flags), { reuse: true }));
    switch (record?.outcome) {
      case 'kept':
        return { result: record.result ?? null, event: record.events[0]!.event };
      case 'error':
      case 'aborted':
        throw new RemapRuntimeError(record.message, record.event);
    }
    throw new Error(`the module answered a single event with ${record ? `outcome "${record.outcome}"` : 'no record'}`);
  }

  /**
   * Runs an input batch (docs/abi.md §2); returns the output batch. With `{ reuse: true }` it is not
   * copied out of the program's memory: it stays valid only until the next call on this program.
   */
  runBatch(input: Uint8Array, options?: OutputOptions): Uint8Array {
    return this.instance.runBatch(input, options);
  }

  /** Size of the module's linear memory. */
  memoryBytes(): number {
    return this.instance.memoryBytes();
  }

  /**
   * Runs newline-delimited JSON (docs/abi.md §3). With `{ reuse: true }` the output is not copied for the
   * caller (a view of the program's memory or of a buffer it keeps): it stays valid only until the next
   * call on this program.
   */
  runNdjson(input: Uint8Array, flags: number, options?: OutputOptions): NdjsonOutput {
    return this.instance.runNdjson(input, flags, options);
  }
}
