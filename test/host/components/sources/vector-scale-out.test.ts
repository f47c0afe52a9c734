// svc → svc over Vector's protocol, as processes: an agent's vector sink feeds aggregators' vector sources.
// Logs and metrics arrive exactly; with two aggregators behind the sink's endpoints, one killed with SIGKILL
// mid-stream and restarted costs no line (duplicates counted); and the API's /health answers 503 once the
// process drains, for the load balancer in front of aggregators.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScaleOutThrough } from '../../support/scale-out.js';
import { freePort, startSvc, tempDir, waitFor, writeFiles } from '../../support/svc.js';

test('agent → vector sink → vector source → file: logs and metrics exactly as sent', async () => {
  const port = await freePort();
  const events = [
    { log: { message: 'one', count: 1, ratio: 0.5, nested: { list: [true, null, 'x'] } } },
    { log: { message: 'two', at: '2024-05-06T07:08:09.123456789Z' } },
    {
      metric: {
        name: 'requests',
        namespace: 'web',
        tags: { host: 'a' },
        timestamp: '2024-05-06T07:08:09.500Z',
        kind: 'incremental',
        counter: { value: 3.0 },
      },
    },
    {
      metric: {
        name: 'latency',
        kind: 'absolute',
        aggregated_histogram: {
          buckets: [
            { upper_limit: 1.0, count: 2 },
            { upper_limit: 5.0, count: 4 },
          ],
          count: 6,
          sum: 9.5,
        },
      },
    },
    { metric: { name: 'load', kind: 'absolute', gauge: { value: 0.75 } } },
  ];
  const dir = tempDir();
  const out = join(dir, 'out.json');
  const config = (name: string, text: string) => {
    writeFileSync(
      join(dir, name),
      `data_dir: ${join(dir, name)}.data\nschema: { log_namespace: true }\nacknowledgements: true\n${text}`,
    );
    mkdirSync(join(dir, `${name}.data`));
    return join(dir, name);
  };
  const aggregatorConfig = config(
    'aggregator.yaml',
    `sources:
  in: { type: vector, address: 127.0.0.1:${port} }
sinks:
  out: { type: file, inputs: [in], path: ${out}, encoding: { codec: native_json } }
`,
  );
  const agentConfig = config(
    'agent.yaml',
    `sources:
  in: { type: stdin, decoding: { codec: native_json } }
sinks:
  out: { type: vector, inputs: [in], address: 127.0.0.1:${port}, batch: { timeout_secs: 0.1 } }
`,
  );
  const aggregator = startSvc(['--config', aggregatorConfig]);
  try {
    await aggregator.waitForStderr(/svc has started/);
    const agent = startSvc(['--config', agentConfig], {
      stdin: `${events.map((event) => JSON.stringify(event)).join('\n')}\n`,
    });
    const { status, stderr } = await agent.exited;
    assert.is(status, 0, stderr);
    await waitFor(
      () => existsSync(out) && readFileSync(out, 'utf8').trim().split('\n').length === events.length,
      () => `output: ${existsSync(out) ? readFileSync(out, 'utf8') : 'none'}`,
    );
    const received = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(received, events);
  } finally {
    aggregator.child.kill('SIGTERM');
    await aggregator.exited;
  }
});

test('agent → two aggregators behind the sink: one SIGKILLed mid-stream and restarted, no line lost', async () => {
  const ports = { a: await freePort(), b: await freePort() };
  const outcome = await runScaleOutThrough(
    {
      sink: `type: vector
routing:
  endpoints: [127.0.0.1:${ports.a}, 127.0.0.1:${ports.b}]
  health: { retry_max_duration_secs: 2 }
batch: { max_events: 100, timeout_secs: 0.1 }
request: { retry_max_duration_secs: 2 }`,
      source: (name) => `type: vector
address: 127.0.0.1:${ports[name as 'a' | 'b']}`,
      // Nothing is redelivered later: the agent retries on the other aggregator at once.
      settleMs: 0,
    },
    { lines: 2000, kills: 1 },
  );
  assert.is(outcome.kills, 1);
  assert.equal(outcome.lost, [], `${outcome.lost.length} lines lost, ${outcome.duplicated} duplicated`);
  // Whether the killed aggregator wrote anything depends on when the kill came (and how soon it was up on a
  // loaded machine); that requests are spread over both endpoints is shown by test/host/components/sinks/vector.
  assert.ok(outcome.perAggregator[1] > 0, 'the surviving aggregator took lines');
});

test('/health answers 200 while running and 503 once draining', async () => {
  const [deadPort, apiPort] = [await freePort(), await freePort()];
  const dir = writeFiles({
    'svc.yaml': `api: { enabled: true, address: 127.0.0.1:${apiPort} }
sources:
  in: { type: demo_logs, format: shuffle, lines: [x], interval: 0.05 }
sinks:
  out: { type: vector, inputs: [in], address: 127.0.0.1:${deadPort}, healthcheck: { enabled: false }, batch: { timeout_secs: 0.05 } }
`,
  });
  const run = startSvc(['--config', join(dir, 'svc.yaml'), '--graceful-shutdown-limit-secs', '3']);
  const health = async () => (await fetch(`http://127.0.0.1:${apiPort}/health`)).status;
  try {
    await run.waitForStderr(/svc has started/);
    assert.is(await health(), 200);
    // The sink cannot deliver (nothing listens), so the shutdown drains until its limit.
    run.child.kill('SIGTERM');
    await run.waitForStderr(/Shutting down/);
    assert.is(await health(), 503);
  } finally {
    await run.exited;
  }
});

test.run();
