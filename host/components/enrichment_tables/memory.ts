// `memory`: a table written by the pipeline itself, as Vector's. Its sink (named by the table, fed by `inputs`)
// writes each top-level field of a log event as a row keyed by the field's name; remap programs look rows up
// by `key`; with `source_config`, its source (named `source_key`) exports the rows every `export_interval`
// and, with `export_expired_items`, sends the rows TTL scans remove on its `expired` output.

import { z } from 'zod';
import { decodeBatch, encodeBatch } from '../../../abi/batch.js';
import type { RemapValue } from '../../../abi/values.js';
import { memoryRow } from '../../enrichment/memory-reader.js';
import { MemoryTable, type ExpiredEntries } from '../../enrichment/memory-table.js';
import { releaseBytes, splitBatch, type EventBatch } from '../../topology/batch.js';
import type {
  ComponentEnv,
  EnrichmentTableDefinition,
  Sink,
  SinkDefinition,
  SourceContext,
  SourceDefinition,
} from '../component.js';
import { stampAt } from '../support/decoding.js';

const options = z.strictObject({
  inputs: z.array(z.string().min(1)).default([]),
  ttl: z.number().int().nonnegative().default(600),
  ttl_field: z.string().default(''),
  scan_interval: z.number().int().positive().default(30),
  flush_interval: z.number().int().positive().optional(),
  max_byte_size: z.number().int().nonnegative().optional(),
  internal_metrics: z.strictObject({ include_key_tag: z.boolean().default(false) }).prefault({}),
  reload_behavior: z.enum(['clear-state', 'preserve-state']).default('clear-state'),
  source_config: z
    .strictObject({
      source_key: z.string().min(1),
      export_interval: z.number().int().positive().optional(),
      export_batch_size: z.number().int().positive().optional(),
      remove_after_export: z.boolean().default(false),
      export_expired_items: z.boolean().default(false),
    })
    .optional(),
});

type MemoryOptions = z.output<typeof options>;

/** The component type of the table's sink and source, as Vector names them in metrics. */
const TYPE = 'memory';

/** The table a component of it (its sink, by the table's id; its source, by `source_key`) works on. */
function tableOf(env: ComponentEnv): MemoryTable {
  const table = env.memoryTables?.get(env.id);
  if (table === undefined) throw new Error(`no memory enrichment table for "${env.id}"`);
  return table;
}

class MemoryTableSink implements Sink {
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly table: MemoryTable,
    private readonly env: ComponentEnv,
  ) {
    // As Vector 0.54's intervals, each ticks once at the start (the flush's too without `flush_interval`).
    const { scan_interval, flush_interval } = table.options;
    table.flush();
    table.scan();
    this.timers.push(setInterval(() => table.scan(), scan_interval * 1000).unref());
    if (flush_interval !== undefined) this.timers.push(setInterval(() => table.flush(), flush_interval * 1000).unref());
  }

  async write(batch: EventBatch): Promise<void> {
    for (const { kind, event } of decodeBatch(batch.bytes).events) {
      if (kind === 'log' && isObject(event)) this.table.write(event);
    }
    // Without `flush_interval` writes are visible at once: Vector flushes after each event, svc after each batch.
    if (this.table.options.flush_interval === undefined) this.table.flush();
    this.env.telemetry.sentRaw(batch.bytes.byteLength);
    releaseBytes(batch);
    batch.finalizer?.release();
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
  }
}

/** Runs the table's source: an export at the start and every `export_interval`, expired rows as they go. */
async function runSource(table: MemoryTable, env: ComponentEnv, context: SourceContext): Promise<void> {
  const config = table.options.source_config!;
  const schema = env.globals.log_schema;
  const send = async (entries: ExpiredEntries, output?: string) => {
    if (entries.length === 0) return;
    const now = Date.now();
    const events = entries.map(([key, entry]) => {
      const event = memoryRow(key, entry, now);
      stampAt(event as Record<string, unknown>, schema.source_type_key, TYPE);
      stampAt(event as Record<string, unknown>, schema.timestamp_key, new Date(now));
      return { event };
    });
    for (const batch of splitBatch({ bytes: encodeBatch(events, 0), count: events.length }, env.chunkSize))
      await context.send(batch, output);
  };
  const exportTable = async () => {
    const limit = config.export_batch_size ?? Number.POSITIVE_INFINITY;
    let sent = 0;
    for (;;) {
      const entries = table.export(config.remove_after_export ? 0 : sent, limit, config.remove_after_export);
      await send(entries);
      sent += entries.length;
      if (entries.length < limit) return;
    }
  };

  const expired: ExpiredEntries[] = [];
  let wake: (() => void) | undefined;
  const stopListening = table.onExpired((entries) => {
    expired.push(entries);
    wake?.();
  });
  const stop = () => wake?.();
  context.shutdown.addEventListener('abort', stop);
  let nextExport = performance.now();
  try {
    while (!context.shutdown.aborted) {
      for (const entries of expired.splice(0)) await send(entries, 'expired');
      if (performance.now() >= nextExport) {
        await exportTable();
        nextExport =
          config.export_interval === undefined ? Number.POSITIVE_INFINITY : nextExport + config.export_interval * 1000;
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (Number.isFinite(nextExport)) timer = setTimeout(resolve, nextExport - performance.now());
      });
      clearTimeout(timer);
      wake = undefined;
    }
  } finally {
    stopListening();
    context.shutdown.removeEventListener('abort', stop);
  }
}

const sink: SinkDefinition<MemoryOptions> = {
  kind: 'sink',
  type: TYPE,
  description: 'Writes log events into a memory enrichment table.',
  options,
  inputs: () => ['log'],
  async build(_options, env) {
    return new MemoryTableSink(tableOf(env), env);
  },
};

const source: SourceDefinition<MemoryOptions> = {
  kind: 'source',
  type: TYPE,
  description: 'Exports the rows of a memory enrichment table.',
  options,
  outputs: (config) => [
    { name: undefined, kinds: ['log'] },
    ...(config.source_config?.export_expired_items ? [{ name: 'expired', kinds: ['log' as const] }] : []),
  ],
  async build(_options, env) {
    const table = tableOf(env);
    return { run: (context) => runSource(table, env, context) };
  },
};

const memory: EnrichmentTableDefinition<MemoryOptions, MemoryTable> = {
  kind: 'enrichment_table',
  type: 'memory',
  description: 'Exposes rows the pipeline writes into memory (by its sink) as an enrichment table, looked up by key.',
  options,
  components: (config) => [
    { kind: 'sink', definition: sink, inputs: config.inputs },
    ...(config.source_config
      ? [{ kind: 'source' as const, id: config.source_config.source_key, definition: source }]
      : []),
  ],
  async load(config, env) {
    return new MemoryTable(env.id, config, env.metrics, {
      component_id: env.id,
      component_kind: 'sink',
      component_type: TYPE,
    });
  },
};

function isObject(value: unknown): value is Record<string, RemapValue> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

export default memory;
