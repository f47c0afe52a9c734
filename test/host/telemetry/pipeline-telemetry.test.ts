// Internal telemetry through the real `svc` executable: what remap programs read of it, and what the
// `internal_metrics` source emits of it.

import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSvc, startSvc, waitFor, writeFiles } from '../support/svc.js';

/** Runs `config` to its end and returns the JSON events it printed. */
async function outputOf(config: string): Promise<Array<Record<string, unknown>>> {
  const dir = writeFiles({ 'svc.yaml': config });
  const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')]);
  assert.is(status, 0, stderr);
  assert.not.match(stderr, /WARN|ERROR/);
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** 20 events 50 ms apart, each with what get_vector_metric saw of the events the source had sent. */
const READS_METRIC = `
sources:
  gen:
    type: demo_logs
    format: shuffle
    lines: [x]
    count: 20
    interval: 0.05
transforms:
  read:
    type: remap
    inputs: [gen]
    source: |
      metric = get_vector_metric("component_sent_events_total", {"component_id": "gen"})
      . = { "seen": metric.value }
sinks:
  out:
    type: console
    inputs: [read]
    encoding: { codec: json }
`;

test('metrics_storage_refresh_period: remap reads the metrics as of the last refresh', async () => {
  const seen = (await outputOf(`metrics_storage_refresh_period: 0.3\n${READS_METRIC}`)).map(
    (event) => event.seen as number | null,
  );
  assert.is(seen.length, 20);
  const values = seen.filter((value) => value !== null);
  assert.ok(values.length > 0 && values.at(-1)! > 0, `some events see the source's count: ${JSON.stringify(seen)}`);
  assert.equal(
    values,
    [...values].sort((a, b) => a - b),
    'the count never goes back',
  );
  assert.ok(new Set(values).size < values.length, `a snapshot serves several events: ${JSON.stringify(seen)}`);
});

test('without metrics_storage_refresh_period the metrics functions see an empty storage, as in Vector', async () => {
  const seen = (await outputOf(READS_METRIC)).map((event) => event.seen);
  assert.equal(seen, new Array(20).fill(null));
});

/** The sink printing the `metrics` source's events (the end of a `sinks` section). */
const METRICS_TO_CONSOLE = `  out:
    type: console
    inputs: [metrics]
    encoding: { codec: json }
`;

const startWith = (config: string) => startSvc(['--config', join(writeFiles({ 'svc.yaml': config }), 'svc.yaml')]);

interface MetricEvent {
  name: string;
  tags: Record<string, string>;
  counter?: { value: number };
  gauge?: { value: number };
  aggregated_histogram?: { count: number; sum: number };
}

test('internal_metrics: source lag, buffer and utilization metrics, and the source and service tags', async () => {
  const svc = startWith(`
telemetry: { tags: { emit_source: true, emit_service: true } }
sources:
  gen:
    type: demo_logs
    format: shuffle
    lines: [x]
    count: 5
    interval: 0.05
  metrics:
    type: internal_metrics
    scrape_interval_secs: 0.2
transforms:
  pass:
    type: filter
    inputs: [gen]
    condition: "true"
sinks:
  void:
    type: blackhole
    inputs: [pass]
${METRICS_TO_CONSOLE}`);
  const scraped = () =>
    svc
      .stdout()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as MetricEvent);
  const find = (name: string, tags: Record<string, string>) =>
    scraped()
      .filter((m) => m.name === name && Object.entries(tags).every(([k, v]) => m.tags[k] === v))
      .at(-1);
  try {
    await waitFor(
      () =>
        find('buffer_sent_events_total', { component_id: 'void' })?.counter?.value === 5 &&
        find('source_lag_time_seconds', { component_id: 'gen' })?.aggregated_histogram?.count === 5,
      () => `the 5 events through; stderr: ${svc.stderr()}`,
    );
  } finally {
    svc.child.kill('SIGTERM');
  }
  await svc.exited;
  const lag = find('source_lag_time_seconds', {
    component_id: 'gen',
    component_kind: 'source',
    component_type: 'demo_logs',
  })!.aggregated_histogram!;
  // demo_logs stamps its events as it makes them.
  assert.ok(lag.sum >= 0 && lag.sum < 5, String(lag.sum));
  assert.is(
    find('component_received_events_total', { component_id: 'gen', source: 'gen', service: '-' })?.counter?.value,
    5,
  );
  assert.is(
    find('component_sent_events_total', { component_id: 'gen', output: '_default', source: 'gen', service: '-' })
      ?.counter?.value,
    5,
  );
  assert.is(
    find('component_received_events_total', { component_id: 'pass', source: 'gen', service: '-' })?.counter?.value,
    5,
  );
  assert.is(
    find('component_sent_event_bytes_total', { component_id: 'pass', source: 'gen', service: '-' })?.counter?.value,
    find('component_received_event_bytes_total', { component_id: 'void', source: 'gen' })?.counter?.value,
  );
  assert.is(
    find('component_received_events_total', { component_id: 'void', source: 'gen', service: '-' })?.counter?.value,
    5,
  );
  assert.is(
    find('component_sent_events_total', { component_id: 'metrics', source: 'metrics', service: '-' }) !== undefined,
    true,
  );
  assert.ok(find('transform_buffer_max_size_events', { component_id: 'pass' })!.gauge!.value > 0);
  assert.ok(find('transform_buffer_utilization_mean', { component_id: 'pass' })!.gauge !== undefined);
  assert.ok(
    find('source_buffer_utilization', { component_id: 'gen', output: '_default' })!.aggregated_histogram!.count >= 10,
  );
  assert.ok(find('source_buffer_max_size_events', { component_id: 'gen', output: '_default' })!.gauge!.value > 0);
  assert.is(
    find('buffer_received_events_total', { component_id: 'void', buffer_id: 'void', stage: '0' })?.counter?.value,
    5,
  );
  assert.is(find('buffer_size_events', { component_id: 'void' })?.gauge?.value, 0);
  assert.ok(find('utilization', { component_id: 'void' })?.gauge !== undefined);
  assert.is(find('utilization', { component_id: 'gen' }), undefined);
});

test('expire_metrics_secs: the series of a source that stopped leave the scrapes; those still updated stay', async () => {
  const svc = startWith(`
expire_metrics_secs: 0.5
sources:
  gen:
    type: demo_logs
    format: shuffle
    lines: [x]
    count: 3
    interval: 0
  metrics:
    type: internal_metrics
    scrape_interval_secs: 0.1
sinks:
  void:
    type: blackhole
    inputs: [gen]
${METRICS_TO_CONSOLE}`);
  /** The scrapes (their events share a timestamp), but the last, which may not be complete yet. */
  const scrapes = () => {
    const byTime = new Map<string, MetricEvent[]>();
    for (const line of svc.stdout().split('\n').slice(0, -1)) {
      const event = JSON.parse(line) as MetricEvent & { timestamp: string };
      byTime.set(event.timestamp, [...(byTime.get(event.timestamp) ?? []), event]);
    }
    return [...byTime.values()].slice(0, -1);
  };
  const ofGen = (scrape: MetricEvent[]) => scrape.filter((m) => m.tags.component_id === 'gen');
  const sentByGen = (scrape: MetricEvent[]) =>
    ofGen(scrape).find((m) => m.name === 'component_sent_events_total')?.counter?.value;
  try {
    await waitFor(
      () => {
        const all = scrapes();
        const seen = all.findIndex((scrape) => sentByGen(scrape) === 3);
        return seen >= 0 && all.slice(seen).some((scrape) => ofGen(scrape).length === 0);
      },
      () => `gen's series counted 3, then gone; stderr: ${svc.stderr()}`,
    );
  } finally {
    svc.child.kill('SIGTERM');
  }
  await svc.exited;
  const last = scrapes().at(-1)!;
  assert.equal(ofGen(last), []);
  assert.ok(
    last.some((m) => m.name === 'component_sent_events_total' && m.tags.component_id === 'metrics'),
    "the scraping source's own counts stay",
  );
});

test.run();
