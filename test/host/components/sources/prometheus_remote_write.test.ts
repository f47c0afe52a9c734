// The prometheus_remote_write source: a snappy protobuf WriteRequest built here becomes metrics typed by its
// metadata; bad requests are answered as Vector answers them; with acknowledgements the answer waits for the
// sinks; svc's own prometheus_remote_write sink reaches it.

import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { encodeBatch } from '../../../../abi/batch.js';
import type { Timestamp } from '../../../../abi/values.js';
import remoteWriteSink, { buildRemoteWriteSink } from '../../../../host/components/sinks/prometheus_remote_write.js';
import prometheusRemoteWrite from '../../../../host/components/sources/prometheus_remote_write.js';
import { metricEvent } from '../../../../host/components/support/metric.js';
import { writeRequestType } from '../../../../host/components/support/prometheus.js';
import { toBatch } from '../../../../host/topology/batch.js';
import { componentEnv } from '../../support/env.js';
import { buildSource, type Collected, runSource, testEnv } from '../../support/sources.js';
import { freePort } from '../../support/svc.js';
import type { TestEnv } from '../../support/env.js';

const require = createRequire(import.meta.url);
const snappy = require('snappyjs') as { compress(bytes: Uint8Array): Uint8Array };

const T = 1_700_000_000_000;

function writeRequest(): Uint8Array {
  const type = writeRequestType();
  const series = (name: string, labels: Record<string, string>, value: number) => ({
    labels: [{ name: '__name__', value: name }, ...Object.entries(labels).map(([n, v]) => ({ name: n, value: v }))],
    samples: [{ value, timestamp: T }],
  });
  const message = type.fromObject({
    metadata: [
      { type: 1, metricFamilyName: 'requests_total', help: '' },
      { type: 3, metricFamilyName: 'took', help: '' },
    ],
    timeseries: [
      series('requests_total', { code: '200' }, 5),
      series('took_bucket', { le: '1' }, 3),
      series('took_bucket', { le: '+Inf' }, 4),
      series('took_sum', {}, 6.5),
      series('took_count', {}, 4),
      series('temp', { room: 'x' }, 21),
    ],
  });
  return snappy.compress(type.encode(message).finish());
}

async function withSource(
  options: Record<string, unknown>,
  body: (url: string, run: Collected) => Promise<void>,
  env: TestEnv = testEnv('prometheus_remote_write'),
) {
  const port = await freePort();
  const source = await buildSource(prometheusRemoteWrite, { address: `127.0.0.1:${port}`, ...options }, env);
  const run = runSource(source);
  try {
    await body(`http://127.0.0.1:${port}`, run);
  } finally {
    run.shutdown.abort();
    await run.done;
    await source.acknowledged?.();
  }
}

const post = async (url: string, body: Uint8Array | string, headers: Record<string, string> = {}) => {
  const response = await request(url, { method: 'POST', body, headers });
  return { status: response.statusCode, text: await response.body.text() };
};

test('a WriteRequest: counters and histograms by its metadata, other series gauges', async () => {
  await withSource({ path: '/api/v1/write' }, async (url, run) => {
    assert.equal(await post(`${url}/api/v1/write`, writeRequest()), { status: 200, text: '' });
    const [requests, took, temp] = run.events;
    assert.is(requests!.name, 'requests_total');
    assert.equal(requests!.tags, { code: '200' });
    assert.equal(requests!.counter, { value: 5 });
    assert.is((requests!.timestamp as Timestamp).nanos, BigInt(T) * 1_000_000n);
    assert.equal(took!.aggregated_histogram, { buckets: [{ upper_limit: 1, count: 3n }], count: 4n, sum: 6.5 });
    assert.is(temp!.name, 'temp');
    assert.equal(temp!.gauge, { value: 21 });
    assert.is(run.events.length, 3);
  });
});

test("bad requests are answered as Vector's are", async () => {
  await withSource({ auth: { username: 'u', password: 'p' } }, async (url, run) => {
    const authorization = `Basic ${Buffer.from('u:p').toString('base64')}`;
    assert.is((await post(`${url}/`, writeRequest())).status, 401);
    assert.is((await post(`${url}/other`, writeRequest(), { authorization })).status, 404);
    assert.is((await request(`${url}/`, { headers: { authorization } })).statusCode, 405);
    const garbled = await post(`${url}/`, snappy.compress(Buffer.from('not protobuf')), { authorization });
    assert.is(garbled.status, 400);
    assert.match(garbled.text, /^Could not decode write request: /);
    assert.is((await post(`${url}/`, writeRequest(), { authorization, 'content-encoding': 'br' })).status, 415);
    assert.is(run.events.length, 0);
  });
});

test('with acknowledgements the answer waits for the sinks: 500 when they gave the metrics up', async () => {
  const env = testEnv('prometheus_remote_write', { acknowledgements: true });
  await withSource(
    {},
    async (url, run) => {
      const answered = post(`${url}/`, writeRequest());
      await run.waitFor(3);
      for (const batch of run.batches) batch.finalizer!.release('errored');
      assert.is((await answered).status, 500);
    },
    env,
  );
});

test("svc's prometheus_remote_write sink reaches the source", async () => {
  await withSource({}, async (url, run) => {
    const sink = await buildRemoteWriteSink(
      remoteWriteSink.options.parse({ endpoint: `${url}/` }),
      componentEnv(remoteWriteSink),
    );
    const batch = toBatch(
      encodeBatch(
        [metricEvent({ name: 'jobs', tags: { a: 'b' }, kind: 'absolute', value: { type: 'counter', value: 9 } })],
        0,
      ),
    );
    await sink.write(batch);
    await sink.close();
    await run.waitFor(1);
    assert.is(run.events[0]!.name, 'jobs');
    assert.equal(run.events[0]!.tags, { a: 'b' });
    assert.equal(run.events[0]!.counter, { value: 9 });
  });
});

test.run();
