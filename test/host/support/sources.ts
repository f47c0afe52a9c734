// Driving a source through its definition: an env like the topology gives, and a context whose `send`
// collects the events of each batch.

import type { ComponentEnv, Source, SourceDefinition } from '../../../host/components/component.js';
import * as assert from 'uvu/assert';
import type { EventBatch } from '../../../host/topology/batch.js';
import { decodeBatch } from '../../../abi/batch.js';
import { Timestamp } from '../../../abi/values.js';
import { componentEnv, type TestEnv } from './env.js';

export function testEnv(type: string, overrides: Partial<ComponentEnv> = {}): TestEnv {
  return { ...componentEnv({ kind: 'source', type }, 'in'), ...overrides };
}

/** `testEnv` with the global `schema.log_namespace: true` (Vector's log namespace). */
export function vectorNamespaceEnv(type: string, overrides: Partial<ComponentEnv> = {}): TestEnv {
  const env = testEnv(type, overrides);
  return { ...env, globals: { ...env.globals, schema: { log_namespace: true } } };
}

/** Checks the metadata every source gives an event in Vector's namespace (`%vector.source_type`, a
 * `%vector.ingest_timestamp`, nothing beside `%<type>`) and returns `%<type>`. */
export function sourceMetadata(metadata: Record<string, unknown>, type: string): Record<string, unknown> {
  const { vector, [type]: own, ...rest } = metadata as { vector: Record<string, unknown> } & Record<string, unknown>;
  assert.equal(rest, {});
  assert.is(vector.source_type, type);
  assert.ok(vector.ingest_timestamp instanceof Timestamp);
  assert.equal(Object.keys(vector).sort(), ['ingest_timestamp', 'source_type']);
  return own as Record<string, unknown>;
}

export interface Collected {
  batches: EventBatch[];
  events: Array<Record<string, unknown>>;
  /** Each event's metadata (`%`), in the order of `events`. */
  metadata: Array<Record<string, unknown>>;
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
    metadata: [],
    kinds: [],
    shutdown,
    done: Promise.resolve(),
    // A source that ends or fails first, or a minute without the events, fails the wait instead of hanging.
    waitFor: (n) =>
      new Promise<void>((resolve, reject) => {
        if (collected.events.length >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`waited a minute for ${n} events: ${collected.events.length} arrived`)),
          60_000,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        collected.done.then(
          () => {
            clearTimeout(timer);
            if (collected.events.length < n)
              reject(new Error(`the source ended after ${collected.events.length} of ${n} events`));
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      }),
  };
  collected.done = source.run({
    async send(batch) {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      collected.batches.push(batch);
      for (const record of decodeBatch(batch.bytes).events) {
        collected.events.push(record.event as Record<string, unknown>);
        collected.metadata.push(record.metadata as Record<string, unknown>);
        collected.kinds.push(record.kind);
      }
      for (const waiter of waiters.filter((w) => collected.events.length >= w.n)) waiter.resolve();
    },
    shutdown: shutdown.signal,
  });
  return collected;
}

/** Parses options with the definition's schema and builds the source. */
export async function buildSource<O>(
  definition: SourceDefinition<O>,
  options: unknown,
  env: ComponentEnv,
): Promise<Source> {
  return definition.build(definition.options.parse(options), env);
}
