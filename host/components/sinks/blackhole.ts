// The `blackhole` sink: accepts events and drops them, optionally at a limited rate, logging what it took
// in every `print_interval_secs` (Vector's "Collected events." summary).

import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { releaseBytes, type EventBatch } from '../../topology/batch.js';

const options = z.strictObject({
  print_interval_secs: z.number().int().nonnegative().default(0),
  rate: z.number().int().positive().optional(),
});

type BlackholeOptions = z.infer<typeof options>;

class BlackholeSink implements Sink {
  private events = 0;
  private bytes = 0;
  /** When the events taken so far are paid for at `rate` (ms, performance clock). */
  private paidUntil = performance.now();
  private readonly reporter: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: BlackholeOptions,
    private readonly env: ComponentEnv,
  ) {
    if (options.print_interval_secs > 0)
      this.reporter = setInterval(() => this.report(), options.print_interval_secs * 1000).unref();
  }

  async write(batch: EventBatch): Promise<void> {
    if (this.options.rate !== undefined) {
      // A token bucket of one second's worth of events (governor's quota per second): take the batch, then
      // wait until what is taken beyond that burst is paid for.
      const now = performance.now();
      this.paidUntil = Math.max(this.paidUntil, now - 1000) + (batch.count * 1000) / this.options.rate;
      const wait = this.paidUntil - 1000 - now;
      if (wait > 0) await sleep(wait);
    }
    this.events += batch.count;
    this.bytes += batch.bytes.byteLength;
    releaseBytes(batch);
    batch.finalizer?.release();
  }

  async close(): Promise<void> {
    if (this.reporter === undefined) return;
    clearInterval(this.reporter);
    this.report();
  }

  private report(): void {
    // A periodic summary: every one counts, so it is never rate limited.
    this.env.log.info('Collected events.', {
      events: this.events,
      raw_bytes_collected: this.bytes,
      internal_log_rate_limit: false,
    });
  }
}

const blackhole: SinkDefinition<BlackholeOptions> = {
  kind: 'sink',
  type: 'blackhole',
  description: 'Send observability events nowhere, which can be useful for debugging purposes.',
  options,
  inputs: () => ['log', 'metric', 'trace'],
  build: async (parsed, env) => new BlackholeSink(parsed, env),
};

export default blackhole;
