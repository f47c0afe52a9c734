// The `console` sink: events encoded and framed to stdout or stderr. A full pipe holds the sink until it
// drains; a closed one (EPIPE: the reader went away) ends it quietly: later events are counted as
// discarded, never a crash.

import type { Writable } from 'node:stream';
import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { releaseBytes, type EventBatch } from '../../topology/batch.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';

const options = z.strictObject({
  target: z.enum(['stdout', 'stderr']).default('stdout'),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
});

type ConsoleOptions = z.infer<typeof options>;

class ConsoleSink implements Sink {
  /** Why the stream stopped accepting bytes, once it did. */
  private broken: Error | undefined;

  constructor(
    private readonly stream: Writable,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
  ) {
    stream.on('error', this.onError);
  }

  /** Every batch is encoded whole: a transform in front may encode it. */
  get batchEncoder(): SinkEncoder {
    return this.encoder;
  }

  async write(batch: EventBatch): Promise<void> {
    // A view of the encoder's memory will do: the write is done before the next batch is encoded.
    const bytes = this.encoder.encode(batch, { reuse: true });
    if (this.broken === undefined && bytes.length > 0) {
      // Waiting for the write's callback is the backpressure (a full pipe holds it until drained) and
      // where its failure comes (EPIPE arrives after write() returned).
      await new Promise<void>((resolve) => {
        this.stream.write(bytes, (error) => {
          if (error) this.onError(error);
          resolve();
        });
      });
    }
    // Written (or never to be): the batch's bytes are not needed any more.
    releaseBytes(batch);
    if (this.broken !== undefined) {
      this.env.telemetry.discarded(batch.count, false);
      batch.finalizer?.release('errored');
      return;
    }
    this.env.telemetry.sentRaw(bytes.length);
    batch.finalizer?.release();
  }

  async close(): Promise<void> {
    this.stream.off('error', this.onError);
    // The process's stdout/stderr stay open: other writers (the logger) share them.
  }

  private readonly onError = (error: NodeJS.ErrnoException): void => {
    if (this.broken !== undefined) return;
    this.broken = error;
    this.env.telemetry.error('write_failed', 'sending');
    if (error.code === 'EPIPE') this.env.log.warn('Output stream closed: events are discarded from now on.');
    else
      this.env.log.error(`Failed writing to the output stream: ${error.message}`, {
        error_type: 'write_failed',
        internal_log_rate_key: 'write_failed',
        stage: 'sending',
      });
  };
}

const consoleSink: SinkDefinition<ConsoleOptions> = {
  kind: 'sink',
  type: 'console',
  description: 'Display observability events in the console, which can be useful for debugging purposes.',
  options,
  inputs: () => ['log', 'metric', 'trace'],
  build: async (parsed, env) => {
    const encoder = new SinkEncoder(
      encodeOptions(parsed.encoding, parsed.framing, 'stream', env.globals.log_schema.message_key),
      env,
    );
    return new ConsoleSink(parsed.target === 'stdout' ? process.stdout : process.stderr, encoder, env);
  },
};

export default consoleSink;
