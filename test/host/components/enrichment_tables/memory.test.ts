// The memory enrichment table: writes visible at flush (on this thread, and in a worker's copy through the
// flush's changes), lookups by key as Vector's, TTL scans, max_byte_size, exports and its metrics.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import type { ComponentEnv, SinkDefinition, SourceDefinition } from '../../../../host/components/component.js';
import memory from '../../../../host/components/enrichment_tables/memory.js';
import { globalSchema } from '../../../../host/config/global.js';
import { addKeyReads, takeKeyReads } from '../../../../host/enrichment/memory-reader.js';
import type { MemoryTable } from '../../../../host/enrichment/memory-table.js';
import {
  applyMemoryTableChanges,
  publishEnrichmentTables,
  threadEnrichmentTables,
} from '../../../../host/enrichment/tables.js';
import { ComponentTelemetry } from '../../../../host/telemetry/component.js';
import { MetricsRegistry } from '../../../../host/telemetry/metrics.js';
import { toBatch } from '../../../../host/topology/batch.js';
import { waitFor } from '../../../support/wait-for.js';

const globals = globalSchema.parse({});

async function table(options: Record<string, unknown> = {}, metrics = new MetricsRegistry()): Promise<MemoryTable> {
  return await memory.load(memory.options.parse(options), { id: 'cache', globals, metrics });
}

/** The table as this thread's remap programs look it up. */
function lookups(data: MemoryTable['data']) {
  publishEnrichmentTables([data]);
  return threadEnrichmentTables.table('cache')!;
}

const key = (value: unknown) => [{ type: 'equals' as const, field: 'key', value: value as string }];

test('a write is visible at flush: the row is key, value (through JSON) and the TTL left', async () => {
  const cache = await table({ ttl: 100 });
  const reader = lookups(cache.data);
  const start = Date.now();
  cache.write({ a: 1n, b: { t: new Timestamp(0n), bytes: new Uint8Array([0x68, 0x69]), f: 1.5 } }, start);
  assert.equal(reader.find(key('a'), undefined, true, undefined), []);
  cache.flush();
  assert.equal(reader.get(key('a'), undefined, true, undefined), { key: 'a', value: 1n, ttl: 100n });
  assert.equal(reader.get(key('b'), undefined, true, undefined).value, {
    t: '1970-01-01T00:00:00Z',
    bytes: 'hi',
    f: 1.5,
  });
});

test('lookups: one equality on the key, whatever its name, the value taken as text; Vector errors', async () => {
  const cache = await table();
  const reader = lookups(cache.data);
  cache.write({ '5': 'five', true: 'yes' });
  cache.flush();
  assert.is(reader.get([{ type: 'equals', field: 'id', value: 5n }], undefined, true, undefined).value, 'five');
  assert.is(reader.get(key(true), undefined, true, undefined).value, 'yes');
  const failure = (run: () => unknown) => {
    try {
      run();
      return 'no error';
    } catch (error) {
      return (error as Error).message;
    }
  };
  assert.is(
    failure(() => reader.get(key('missing'), undefined, true, undefined)),
    'No rows found',
  );
  assert.is(
    failure(() => reader.find([], undefined, true, undefined)),
    'Key condition must be specified',
  );
  assert.is(
    failure(() => reader.find([...key('5'), ...key('true')], undefined, true, undefined)),
    'Only one condition is allowed',
  );
  const range = { type: 'between_dates' as const, field: 'key', from: new Timestamp(0n), to: new Timestamp(1n) };
  assert.is(
    failure(() => reader.find([range], undefined, true, undefined)),
    'Only equality condition is allowed',
  );
});

test("a worker's copy follows the flushes through their changes, and ignores a replaced table's", async () => {
  const cache = await table();
  publishEnrichmentTables([structuredClone(cache.data)]);
  cache.publishTo(applyMemoryTableChanges);
  const copy = threadEnrichmentTables.table('cache')!;
  cache.write({ a: 'one', b: 'two' });
  cache.flush();
  cache.write({ a: 'uno' });
  cache.flush();
  assert.equal(
    ['a', 'b'].map((name) => copy.get(key(name), undefined, true, undefined).value),
    ['uno', 'two'],
  );
  const replaced = await table();
  replaced.publishTo(applyMemoryTableChanges);
  replaced.write({ a: 'other' });
  replaced.flush();
  assert.is(copy.get(key('a'), undefined, true, undefined).value, 'uno');
});

test('TTL: a scan removes the entries older than their TTL (ttl_field read in the value), handing them to the expired listeners', async () => {
  const cache = await table({
    ttl: 10,
    ttl_field: 'ttl',
    source_config: { source_key: 'cache_out', export_expired_items: true },
  });
  const reader = lookups(cache.data);
  const expired: string[] = [];
  cache.onExpired((entries) => expired.push(...entries.map(([name]) => name)));
  const start = Date.now();
  cache.write({ short: { ttl: 1n, v: 1n }, long: { v: 2n } }, start);
  cache.flush();
  assert.ok((reader.get(key('short'), undefined, true, undefined).ttl as bigint) <= 1n);
  // Expired once more whole seconds than its TTL have passed.
  cache.scan(start + 1999);
  assert.equal(expired, []);
  cache.scan(start + 2000);
  assert.equal(expired, ['short']);
  assert.equal(reader.find(key('short'), undefined, true, undefined), []);
  assert.ok((reader.get(key('long'), undefined, true, undefined).ttl as bigint) >= 9n);
  cache.scan(start + 11_000);
  assert.equal(expired, ['short', 'long']);
});

test('max_byte_size refuses the writes that would make the table bigger', async () => {
  const metrics = new MetricsRegistry();
  // Each entry here: 96 bytes of overhead, a 1-byte key and a 1-byte value.
  const cache = await table({ max_byte_size: 200, internal_metrics: { include_key_tag: true } }, metrics);
  const reader = lookups(cache.data);
  cache.write({ a: 1n, b: 2n, c: 3n });
  cache.flush();
  assert.equal(
    ['a', 'b', 'c'].map((name) => reader.find(key(name), undefined, true, undefined).length),
    [1, 1, 0],
  );
  assert.is(metrics.total('memory_enrichment_table_failed_insertions', { key: 'c' }), 1);
  assert.is(metrics.total('memory_enrichment_table_byte_size'), 196);
});

test('export: batches from the visible entries; with remove_after_export they are removed at once', async () => {
  const cache = await table();
  const reader = lookups(cache.data);
  cache.write({ a: 1n, b: 2n, c: 3n });
  cache.flush();
  assert.equal(
    cache.export(1, 5, false).map(([name]) => name),
    ['b', 'c'],
  );
  assert.equal(
    cache.export(0, 2, true).map(([name]) => name),
    ['a', 'b'],
  );
  assert.equal(reader.find(key('a'), undefined, true, undefined), []);
  assert.is(reader.get(key('c'), undefined, true, undefined).value, 3n);
});

test("metrics: Vector's names, the table's component tags, reads counted in every thread", async () => {
  const metrics = new MetricsRegistry();
  const cache = await table({ ttl: 0 }, metrics);
  const reader = lookups(cache.data);
  cache.write({ a: 1n, b: 2n }, 0);
  cache.flush();
  reader.find(key('a'), undefined, true, undefined);
  reader.find(key('zz'), undefined, true, undefined);
  cache.scan(1000);
  const tags = { component_id: 'cache', component_kind: 'sink', component_type: 'memory' };
  assert.equal(
    Object.fromEntries(
      [
        'memory_enrichment_table_insertions_total',
        'memory_enrichment_table_flushes_total',
        'memory_enrichment_table_objects_count',
        'memory_enrichment_table_reads_total',
        'memory_enrichment_table_failed_reads',
        'memory_enrichment_table_ttl_expirations',
      ].map((name) => [name, metrics.total(name, tags)]),
    ),
    {
      memory_enrichment_table_insertions_total: 2,
      memory_enrichment_table_flushes_total: 2,
      memory_enrichment_table_objects_count: 0,
      memory_enrichment_table_reads_total: 1,
      memory_enrichment_table_failed_reads: 1,
      memory_enrichment_table_ttl_expirations: 2,
    },
  );
  cache.close();
  reader.find(key('a'), undefined, true, undefined);
  assert.is(metrics.total('memory_enrichment_table_failed_reads'), 1);
});

test('include_key_tag: lookups counted per key, those of a worker handed over with its reply', async () => {
  const metrics = new MetricsRegistry();
  const cache = await table({ internal_metrics: { include_key_tag: true } }, metrics);
  const reader = lookups(cache.data);
  cache.write({ a: 1n });
  cache.flush();
  reader.find(key('a'), undefined, true, undefined);
  // As a worker: its counts leave with its reply and join the main thread's.
  const handedOver = takeKeyReads()!;
  reader.find(key('a'), undefined, true, undefined);
  reader.find(key('b'), undefined, true, undefined);
  addKeyReads(handedOver);
  assert.is(metrics.total('memory_enrichment_table_reads_total', { key: 'a' }), 2);
  assert.is(metrics.total('memory_enrichment_table_failed_reads', { key: 'b' }), 1);
  assert.is(metrics.total('memory_enrichment_table_insertions_total', { key: 'a' }), 1);
});

test('its sink writes the fields of each log event; with flush_interval they wait for the flush', async () => {
  const metrics = new MetricsRegistry();
  const cache = await table({ flush_interval: 3600, scan_interval: 3600 }, metrics);
  const reader = lookups(cache.data);
  const [component] = memory.components!(cache.options as never);
  assert.is(component!.kind, 'sink');
  const env = {
    id: 'cache',
    metrics,
    memoryTables: new Map([['cache', cache]]),
    telemetry: new ComponentTelemetry(metrics, 'cache', 'sink', 'memory'),
  } as unknown as ComponentEnv;
  const sink = await (component!.definition as SinkDefinition).build(cache.options, env);
  await sink.write(
    toBatch(
      encodeBatch(
        [
          { event: { ann: { name: 'Ann' }, n: 1n } },
          { kind: 'metric', event: { name: 'not_a_row', counter: { value: 1 } } },
        ],
        0,
      ),
    ),
  );
  assert.equal(reader.find(key('ann'), undefined, true, undefined), []);
  cache.flush();
  assert.equal(reader.get(key('ann'), undefined, true, undefined).value, { name: 'Ann' });
  assert.is(reader.get(key('n'), undefined, true, undefined).value, 1n);
  assert.equal(reader.find(key('name'), undefined, true, undefined), []);
  await sink.close();
});

test('its source: an export at the start in batches (removing the rows), then the expired rows on their output', async () => {
  const metrics = new MetricsRegistry();
  const cache = await table(
    {
      ttl: 0,
      source_config: {
        source_key: 'cache_out',
        export_batch_size: 2,
        remove_after_export: true,
        export_expired_items: true,
      },
    },
    metrics,
  );
  const start = Date.now();
  cache.write({ a: 1n, b: 2n, c: 3n }, start);
  cache.flush();
  const source = memory.components!(cache.options as never).find((component) => component.kind === 'source')!;
  assert.is(source.kind === 'source' && source.id, 'cache_out');
  const env = {
    id: 'cache_out',
    globals,
    chunkSize: 1000,
    memoryTables: new Map([['cache_out', cache]]),
  } as unknown as ComponentEnv;
  const sent: Array<{ output: string | undefined; keys: unknown[] }> = [];
  const shutdown = new AbortController();
  const running = (await (source.definition as SourceDefinition).build(cache.options, env)).run({
    shutdown: shutdown.signal,
    async send(batch, output) {
      sent.push({ output, keys: decodeBatch(batch.bytes).events.map(({ event }) => (event as { key: unknown }).key) });
    },
  });
  await waitFor(
    () => sent.length === 2,
    () => JSON.stringify(sent),
  );
  assert.equal(sent, [
    { output: undefined, keys: ['a', 'b'] },
    { output: undefined, keys: ['c'] },
  ]);
  cache.write({ d: 4n }, start);
  cache.flush();
  cache.scan(start + 1000);
  await waitFor(
    () => sent.length === 3,
    () => JSON.stringify(sent),
  );
  assert.equal(sent[2], { output: 'expired', keys: ['d'] });
  shutdown.abort();
  await running;
});

test('options: defaults as Vector, source_config needs source_key', () => {
  const parsed = memory.options.parse({});
  assert.equal(parsed, {
    inputs: [],
    ttl: 600,
    ttl_field: '',
    scan_interval: 30,
    internal_metrics: { include_key_tag: false },
    reload_behavior: 'clear-state',
  });
  assert.not.ok(memory.options.safeParse({ source_config: {} }).success);
  assert.not.ok(memory.options.safeParse({ flush_interval: 0 }).success);
});

test.run();
