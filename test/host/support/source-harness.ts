// Drives a source through its definition, as the topology does: options parsed by its schema, a component
// env with real telemetry and a logger that keeps the records, and a context whose `send` collects the
// batches' events.

import type { SourceDefinition } from '../../../host/components/component.js';
import { componentEnv } from './env.js';
import type { LogRecord } from '../../../host/log.js';
import type { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import { decodeBatch } from '../../../abi/batch.js';

export interface RunningSource {
  events: Array<Record<string, unknown>>;
  /** Each event's metadata (`%`), in the order of `events`. */
  metadata: Array<Record<string, unknown>>;
  logs: LogRecord[];
  metrics: MetricsRegistry;
  /** Aborts the shutdown signal and waits for `run` to return. */
  stop(): Promise<void>;
  /** Resolves once `count` events arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  done: Promise<void>;
}

export async function startSource<Options>(
  definition: SourceDefinition<Options>,
  rawOptions: unknown,
  overrides: { id?: string; dataDir?: string; chunkSize?: number } = {},
): Promise<RunningSource> {
  const env = componentEnv(definition, overrides.id ?? 'in', overrides);
  const { logs, metrics } = env;
  const source = await definition.build(definition.options.parse(rawOptions), env);
  const events: Array<Record<string, unknown>> = [];
  const metadata: Array<Record<string, unknown>> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const shutdown = new AbortController();
  const done = source.run({
    shutdown: shutdown.signal,
    async send(batch) {
      for (const record of decodeBatch(batch.bytes).events) {
        events.push(record.event as Record<string, unknown>);
        metadata.push(record.metadata as Record<string, unknown>);
      }
      for (const waiter of [...waiters]) if (events.length >= waiter.count) waiter.resolve();
    },
  });
  return {
    events,
    metadata,
    logs,
    metrics,
    done,
    async stop() {
      shutdown.abort();
      await done;
    },
    waitFor(count, timeoutMs = 60000) {
      if (events.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `waited for ${count} events, got ${events.length}: ${JSON.stringify(events.map((e) => e.message))}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

/** Resolves after `ms` (to let a source poll when asserting that nothing more arrives). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
