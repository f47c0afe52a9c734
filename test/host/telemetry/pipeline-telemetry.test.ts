// Internal telemetry through the real `svc` executable: what remap programs read of it, and what the
// `internal_metrics` source emits of it.

import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSvc, writeFiles } from '../support/svc.js';

/** Runs `config` to its end and returns the JSON events it printed. */
async function outputOf(config: string): Promise<Array<Record<string, unknown>>> {
  const dir = writeFiles({ 'svc.yaml': config });
  const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')]);
  assert.is(status, 0, stderr);
  assert.not.match(stderr, /WARN|ERROR/);
  return stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
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
  const seen = (await outputOf(`metrics_storage_refresh_period: 0.3\n${READS_METRIC}`)).map((event) => event.seen as number | null);
  assert.is(seen.length, 20);
  const values = seen.filter((value) => value !== null);
  assert.ok(values.length > 0 && values.at(-1)! > 0, `some events see the source's count: ${JSON.stringify(seen)}`);
  assert.equal(values, [...values].sort((a, b) => a - b), 'the count never goes back');
  assert.ok(new Set(values).size < values.length, `a snapshot serves several events: ${JSON.stringify(seen)}`);
});

test('without metrics_storage_refresh_period the metrics functions see an empty storage, as in Vector', async () => {
  const seen = (await outputOf(READS_METRIC)).map((event) => event.seen);
  assert.equal(seen, new Array(20).fill(null));
});

test.run();
