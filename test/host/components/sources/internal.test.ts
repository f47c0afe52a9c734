import { test } from 'uvu';
import * as assert from 'uvu/assert';
import internalLogs from '../../../../host/components/sources/internal_logs.js';
import internalMetrics from '../../../../host/components/sources/internal_metrics.js';
import { Timestamp } from '../../../../abi/values.js';
import { buildSource, runSource, sourceMetadata, testEnv } from '../../support/sources.js';

test("internal_metrics: metric events in Vector's model, and counters change between scrapes", async () => {
  const env = testEnv('internal_metrics');
  const counter = env.metrics.counter('component_received_events_total', { component_id: 'x' });
  env.metrics.histogram('component_received_events_count', { component_id: 'x' }).record(3);
  counter.increment(2);
  const run = runSource(
    await buildSource(internalMetrics, { scrape_interval_secs: 0.05, tags: { pid_key: 'pid', host_key: 'host' } }, env),
  );
  await run.waitFor(1);
  counter.increment(5);
  const ofX = (name: string) =>
    run.events.filter((e) => e.name === name && (e.tags as { component_id: string }).component_id === 'x');
  const seen = () => ofX('component_received_events_total');
  while (seen().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  run.shutdown.abort();
  await run.done;
  assert.ok(run.kinds.every((kind) => kind === 'metric'));
  const [first, later] = seen();
  assert.equal(first!.counter, { value: 2 });
  assert.equal(later!.counter, { value: 7 });
  assert.is(first!.namespace, 'svc');
  assert.is(first!.kind, 'absolute');
  assert.equal(first!.tags, { component_id: 'x', host: 'test-host', pid: String(process.pid) });
  assert.ok(first!.timestamp !== undefined);
  const histogram = ofX('component_received_events_count')[0]!.aggregated_histogram as {
    buckets: Array<{ upper_limit: number; count: bigint }>;
    count: bigint;
    sum: number;
  };
  assert.is(histogram.count, 1n);
  assert.is(histogram.sum, 3);
  assert.equal(
    histogram.buckets.find((b) => b.upper_limit === 5),
    { upper_limit: 5, count: 1n },
  );
});

test("internal_logs: a warn record becomes a log event with Vector's fields", async () => {
  const env = testEnv('internal_logs');
  const run = runSource(await buildSource(internalLogs, {}, env));
  env.logHub.logger('svc::sources::file', { component_id: 'files' }).warn('Something is odd.', { path: '/tmp/x' });
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  const event = run.events[0]!;
  assert.is(event.message, 'Something is odd.');
  assert.equal(event.metadata, {
    kind: 'event',
    level: 'WARN',
    module_path: 'svc::sources::file',
    target: 'svc::sources::file',
  });
  assert.is(event.component_id, 'files');
  assert.is(event.path, '/tmp/x');
  assert.is(event.host, 'test-host');
  assert.is(event.pid, BigInt(process.pid));
  assert.is(event.source_type, 'internal_logs');
  assert.ok(event.timestamp !== undefined);
});

test('internal_logs: empty host_key and pid_key leave those fields out', async () => {
  const env = testEnv('internal_logs');
  const run = runSource(await buildSource(internalLogs, { host_key: '', pid_key: '' }, env));
  env.logHub.logger('svc::test').info('hello');
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  assert.not.ok('host' in run.events[0]!);
  assert.not.ok('pid' in run.events[0]!);
});

test('internal_logs with log_namespace: the record is the event with its timestamp; host and pid are in %internal_logs', async () => {
  const env = testEnv('internal_logs');
  const run = runSource(await buildSource(internalLogs, { log_namespace: true, host_key: '', pid_key: '' }, env));
  env.logHub.logger('svc::test').info('hello', { path: '/tmp/x' });
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  const event = run.events[0]!;
  assert.equal(Object.keys(event).sort(), ['message', 'metadata', 'path', 'timestamp']);
  assert.is(event.message, 'hello');
  assert.instance(event.timestamp, Timestamp);
  assert.equal(sourceMetadata(run.metadata[0]!, 'internal_logs'), { host: 'test-host', pid: BigInt(process.pid) });
});

test.run();
