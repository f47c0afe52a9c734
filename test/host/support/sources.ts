// Driving a source through its definition: an env like the topology gives, and a context whose `send`
// collects the events of each batch.

import type { ComponentEnv, Source, SourceDefinition } from '../../../host/components/component.js';
import { LogHub } from '../../../host/log.js';
import { ComponentTelemetry } from '../../../host/telemetry/component.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import type { EventBatch } from '../../../host/topology/batch.js';
import { decodeBatch } from '../../../runtime/batch.js';

export function testEnv(type: string, overrides: Partial<ComponentEnv> = {}): ComponentEnv & { logLines: string[] } {
  const logLines: string[] = [];
  const logHub = new LogHub({ level: 'info', format: 'text', color: false, rateLimitSecs: 0, backtraces: false, write: (line) => logLines.push(line) });
  const metrics = new MetricsRegistry();
  return {
    id: 'in',
    globals: {
      data_dir: '/tmp',
      timezone: 'UTC',
      wildcard_matching: 'strict',
      log_schema: { host_key: '.host', message_key: '.message', metadata_key: '.metadata', source_type_key: '.source_type', timestamp_key: '.timestamp' },
    },
    log: logHub.logger(`svc::sources::${type}`, { component_id: 'in' }),
    telemetry: new ComponentTelemetry(metrics, 'in', 'source', type),
    chunkSize: 1000,
    maxDecompressedSize: 1 << 20,
    hostname: 'test-host',
    metrics,
    logHub,
    logLines,
    ...overrides,
  };
}

export interface Collected {
  batches: EventBatch[];
  events: Array<Record<string, unknown>>;
  kinds: string[];
  shutdown: AbortController;
  /** Resolves when the source's `run` returned. */
  done: Promise<void>;
  /** Resolves once at least `n` events arrived. */
  waitFor(n: number): Promise<void>;
}

/** Runs `source`; `send` collects, after `delayMs` when given (a slow consumer). */
export function runSource(source: Source, options: { delayMs?: number } = {}): Collected {
  const shutdown = new AbortController();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const collected: Collected = {
    batches: [],
    events: [],
    kinds: [],
    shutdown,
    done: Promise.resolve(),
    waitFor: (n) => new Promise<void>((resolve) => (collected.events.length >= n ? resolve() : waiters.push({ n, resolve }))),
  };
  collected.done = source.run({
    async send(batch) {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      collected.batches.push(batch);
      for (const record of decodeBatch(batch.bytes).events) {
        collected.events.push(record.event as Record<string, unknown>);
        collected.kinds.push(record.kind);
      }
      for (const waiter of waiters.filter((w) => collected.events.length >= w.n)) waiter.resolve();
    },
    shutdown: shutdown.signal,
  });
  return collected;
}

/** Parses options with the definition's schema and builds the source. */
export async function buildSource<O>(definition: SourceDefinition<O>, options: unknown, env: ComponentEnv): Promise<Source> {
  return definition.build(definition.options.parse(options), env);
}
