// Metrics end to end in the real `svc` executable: stdin logs → log_to_metric → aggregate → console
// (native_json). The aggregate holds the metrics of its interval and lets them out at shutdown.

import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startSvc, tempDir } from '../../support/svc.js';

test('counters and gauges made of logs are summed and kept latest per series, flushed at shutdown', async () => {
  const path = join(tempDir(), 'svc.yaml');
  writeFileSync(
    path,
    `
sources:
  app:
    type: stdin
    decoding: { codec: json }
transforms:
  to_metrics:
    type: log_to_metric
    inputs: [app]
    metrics:
      - type: counter
        field: status
        name: http_requests_total
        namespace: web
        tags: { status: "{{status}}" }
      - type: gauge
        field: bytes
        name: last_response_bytes
  per_interval:
    type: aggregate
    inputs: [to_metrics]
    interval_ms: 3600000
sinks:
  out:
    type: console
    inputs: [per_interval]
    encoding: { codec: native_json }
`,
  );
  const lines = [
    { status: 200, bytes: 10, timestamp: '2026-01-01T00:00:01Z' },
    { status: 500, bytes: 20, timestamp: '2026-01-01T00:00:02Z' },
    { status: 200, bytes: 30, timestamp: '2026-01-01T00:00:03Z' },
    { status: 200, timestamp: '2026-01-01T00:00:04Z' },
  ];
  const { status, stdout, stderr } = await startSvc(['--config', path], {
    stdin: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  }).exited;
  assert.is(status, 0, stderr);
  const metrics = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { metric: Record<string, unknown> }).metric);
  // The log without `bytes` made no metric at all (all or none), and was counted as an error.
  assert.equal(
    metrics.map(({ timestamp: _, ...metric }) => metric),
    [
      {
        name: 'http_requests_total',
        namespace: 'web',
        tags: { status: '200' },
        kind: 'incremental',
        counter: { value: 2 },
      },
      { name: 'last_response_bytes', kind: 'absolute', gauge: { value: 30 } },
      {
        name: 'http_requests_total',
        namespace: 'web',
        tags: { status: '500' },
        kind: 'incremental',
        counter: { value: 1 },
      },
    ],
  );
  assert.ok(stderr.includes('Field does not exist.'), stderr);
});

test.run();
