// `eventdb_metrics` (spec 2, Vector's `eventstoredb_metrics`): scrapes the `/stats` JSON document of an
// EventStoreDB node every `scrape_interval_secs` (the first at start) and emits its process and disk figures
// as absolute metrics under `default_namespace`, tagged with the node's process `id` (and the data drive's
// `path` for the drive's). The request goes through the proxy in force (support/proxy.ts). A failed request
// is counted as a `request_failed` error, a document that is not the stats one as `parser_failed`, as Vector
// does; the scrape after it goes on.

import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { IntegralFloat } from '../../../abi/codec.js';
import { encodeBatch, type InputEvent } from '../../../abi/batch.js';
import { splitBatch } from '../../topology/batch.js';
import type { ComponentEnv, SourceDefinition } from '../component.js';
import { effectiveProxy, ProxiedDispatchers } from '../support/proxy.js';

const options = z.strictObject({
  endpoint: z
    .string()
    .refine((text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol), {
      message: 'expected an http:// or https:// URI',
    })
    .default('https://localhost:2113/stats'),
  scrape_interval_secs: z.number().int().positive().default(15),
  default_namespace: z.string().default('eventdb'),
});
type EventDbMetricsOptions = z.infer<typeof options>;

/** A count of the stats document: a non-negative number. */
const count = z.number().nonnegative();

/** The fields of EventStoreDB's `/stats` the metrics come from. `sys.drive` holds one entry: the data
 * directory's path → its figures. */
const statsSchema = z.object({
  proc: z.object({
    id: z.number().int(),
    mem: count,
    diskIo: z.object({ readBytes: count, writtenBytes: count, readOps: count, writeOps: count }),
  }),
  sys: z.object({
    freeMem: count,
    drive: z.record(z.string(), z.object({ availableBytes: count, totalBytes: count, usedBytes: count })).optional(),
  }),
});
type Stats = z.infer<typeof statsSchema>;

/** The metric events of one stats document, in Vector's order. */
function statsMetrics(stats: Stats, namespace: string, timestamp: Date): InputEvent[] {
  const tags = { id: String(stats.proc.id) };
  const metric = (name: string, type: 'counter' | 'gauge', value: number, extraTags = {}): InputEvent => ({
    kind: 'metric',
    event: {
      name,
      namespace,
      tags: { ...tags, ...extraTags },
      timestamp,
      kind: 'absolute',
      [type]: { value: new IntegralFloat(value) },
    },
  });
  const { diskIo } = stats.proc;
  const events = [
    metric('process_memory_used_bytes', 'gauge', stats.proc.mem),
    metric('disk_read_bytes_total', 'counter', diskIo.readBytes),
    metric('disk_written_bytes_total', 'counter', diskIo.writtenBytes),
    metric('disk_read_ops_total', 'counter', diskIo.readOps),
    metric('disk_write_ops_total', 'counter', diskIo.writeOps),
    metric('memory_free_bytes', 'gauge', stats.sys.freeMem),
  ];
  const [drive] = Object.entries(stats.sys.drive ?? {});
  if (drive !== undefined) {
    const [path, figures] = drive;
    events.push(
      metric('disk_total_bytes', 'gauge', figures.totalBytes, { path }),
      metric('disk_free_bytes', 'gauge', figures.availableBytes, { path }),
      metric('disk_used_bytes', 'gauge', figures.usedBytes, { path }),
    );
  }
  return events;
}

/** What is wrong with a document that is not the stats one, e.g. `proc.diskIo.readBytes: expected number`. */
function parseStats(body: string): Stats | string {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    return (error as Error).message;
  }
  const parsed = statsSchema.safeParse(document);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  return `${issue!.path.join('.') || 'the document'}: ${issue!.message}`;
}

type Undici = typeof import('undici');

/** One scrape: the stats document's body, or undefined when the request failed (logged and counted). */
async function scrape(
  undici: Undici,
  dispatchers: ProxiedDispatchers,
  options: EventDbMetricsOptions,
  env: ComponentEnv,
  signal: AbortSignal,
): Promise<string | undefined> {
  let failure: string;
  try {
    const response = await undici.request(options.endpoint, {
      headers: { 'content-type': 'application/json' },
      dispatcher: dispatchers.for(options.endpoint),
      // A scrape still unanswered when the next one is due has failed.
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.scrape_interval_secs * 1000)]),
    });
    const body = await response.body.text();
    env.telemetry.receivedRaw(Buffer.byteLength(body));
    if (response.statusCode >= 200 && response.statusCode < 300) return body;
    failure = `HTTP status ${response.statusCode}`;
  } catch (error) {
    if (signal.aborted) return undefined;
    const cause = (error as Error).cause;
    failure =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${options.scrape_interval_secs} s`
        : `${(error as Error).message}${cause instanceof Error ? `: ${cause.message}` : ''}`;
  }
  env.telemetry.error('request_failed', 'receiving');
  env.log.error('HTTP request processing error.', {
    error: failure,
    endpoint: options.endpoint,
    error_type: 'request_failed',
    stage: 'receiving',
    internal_log_rate_key: 'request_failed',
  });
  return undefined;
}

const definition: SourceDefinition<EventDbMetricsOptions> = {
  kind: 'source',
  type: 'eventdb_metrics',
  description: 'Collect metrics from the statistics endpoint of an EventDB node.',
  options,
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  async build(options, env) {
    const undici = await import('undici');
    const dispatchers = new ProxiedDispatchers(undici, effectiveProxy(env.globals.proxy, env.proxy));
    return {
      async run(context) {
        const signal = context.shutdown;
        let next = performance.now();
        try {
          while (!signal.aborted) {
            const body = await scrape(undici, dispatchers, options, env, signal);
            const stats = body === undefined ? undefined : parseStats(body);
            if (typeof stats === 'string') {
              env.telemetry.error('parser_failed', 'processing');
              env.log.error('JSON parsing error.', {
                error: stats,
                error_type: 'parser_failed',
                stage: 'processing',
                internal_log_rate_key: 'parser_failed',
              });
            } else if (stats !== undefined) {
              const events = statsMetrics(stats, options.default_namespace, new Date());
              for (const batch of splitBatch({ bytes: encodeBatch(events, 0), count: events.length }, env.chunkSize))
                await context.send(batch);
            }
            next += options.scrape_interval_secs * 1000;
            await sleep(Math.max(0, next - performance.now()), undefined, { signal }).catch(() => undefined);
          }
        } finally {
          await dispatchers.close();
        }
      },
    };
  },
};

export default definition;
