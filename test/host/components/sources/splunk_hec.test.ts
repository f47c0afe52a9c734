// The splunk_hec source over HTTP: the event endpoint's HEC objects (fields, time, host, index, source,
// sourcetype and the channel where Vector puts them, in both log namespaces), the raw endpoint, health,
// Splunk's error answers (counted in component_errors_total), tokens (kept in the metadata with
// store_hec_token), and indexer acknowledgements through /services/collector/ack.

import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import splunkHec from '../../../../host/components/sources/splunk_hec.js';
import { Timestamp } from '../../../../abi/values.js';
import type { TestEnv } from '../../support/env.js';
import {
  buildSource,
  type Collected,
  runSource,
  sourceMetadata,
  testEnv,
  vectorNamespaceEnv,
} from '../../support/sources.js';
import { freePort } from '../../support/svc.js';
import splunkHecLogs, { buildSplunkHecLogsSink } from '../../../../host/components/sinks/splunk_hec_logs.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { BatchNotifier } from '../../../../host/topology/batch.js';
import { httpTarget, instantTimer } from '../../support/http-target.js';
import { waitFor } from '../../../support/wait-for.js';

async function withHec(
  options: Record<string, unknown>,
  body: (url: string, run: Collected, env: TestEnv) => Promise<void>,
  env = testEnv('splunk_hec'),
) {
  const port = await freePort();
  const source = await buildSource(splunkHec, { address: `127.0.0.1:${port}`, ...options }, env);
  const run = runSource(source);
  try {
    await body(`http://127.0.0.1:${port}/services/collector`, run, env);
  } finally {
    run.shutdown.abort();
    await run.done;
    await source.acknowledged?.();
  }
}

const post = async (url: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { method: 'POST', body, headers });
  return { status: response.status, body: await response.text() };
};
const seconds = (s: number) => new Timestamp(BigInt(s) * 1_000_000_000n);

test('event endpoint: HEC objects one after another; fields, time, host, index, source, sourcetype, channel (legacy namespace)', async () => {
  await withHec({}, async (url, run) => {
    const body = [
      {
        event: 'one',
        time: 1_600_000_000,
        host: 'h1',
        index: 'main',
        source: 's',
        sourcetype: 'st',
        fields: { f: 'x' },
      },
      // `time` in milliseconds; host, index, source, sourcetype and time carry on from the object before.
      { event: { line: 'two', app: 'web' }, time: '1600000001000' },
      { event: { line: { nested: true } }, channel: 'chan-2' },
    ]
      .map((o) => JSON.stringify(o))
      .join('\n ');
    const answer = await post(`${url}/event`, body, { 'x-splunk-request-channel': 'chan-1' });
    assert.equal(answer, { status: 200, body: '{"text":"Success","code":0}' });
    assert.equal(run.events, [
      {
        message: 'one',
        f: 'x',
        host: 'h1',
        splunk_index: 'main',
        splunk_source: 's',
        splunk_sourcetype: 'st',
        splunk_channel: 'chan-1',
        source_type: 'splunk_hec',
        timestamp: seconds(1_600_000_000),
      },
      {
        message: 'two',
        app: 'web',
        host: 'h1',
        splunk_index: 'main',
        splunk_source: 's',
        splunk_sourcetype: 'st',
        splunk_channel: 'chan-1',
        source_type: 'splunk_hec',
        timestamp: seconds(1_600_000_001),
      },
      {
        line: { nested: true },
        host: 'h1',
        splunk_index: 'main',
        splunk_source: 's',
        splunk_sourcetype: 'st',
        splunk_channel: 'chan-2',
        source_type: 'splunk_hec',
        timestamp: seconds(1_600_000_001),
      },
    ]);
    // Without `host`, the peer (`ip:port`) or X-Forwarded-For; the bare path and /event/1.0 take events too.
    await post(url, '{"event":"three"}');
    await post(`${url}/event/1.0`, '{"event":"four"}', { 'x-forwarded-for': '10.1.2.3' });
    assert.match(String(run.events[3]!.host), /^127\.0\.0\.1:\d+$/);
    assert.is(run.events[4]!.host, '10.1.2.3');
    assert.ok(run.events[3]!.timestamp instanceof Timestamp);
  });
});

test("Vector's log namespace: the event is `event`, the rest in %splunk_hec", async () => {
  await withHec(
    {},
    async (url, run) => {
      await post(`${url}/event?channel=c`, '{"event":{"a":1},"host":"h","index":"i","time":1.5,"fields":{"f":"x"}}');
      assert.equal(run.events, [{ a: 1n }]);
      assert.equal(sourceMetadata(run.metadata[0]!, 'splunk_hec'), {
        channel: 'c',
        f: 'x',
        timestamp: new Timestamp(1_500_000_000n),
        host: 'h',
        index: 'i',
      });
      await post(`${url}/raw?channel=c`, 'raw body');
      assert.equal(Buffer.from(run.events[1] as unknown as Uint8Array).toString(), 'raw body');
      const own = sourceMetadata(run.metadata[1]!, 'splunk_hec');
      assert.is(own.channel, 'c');
      assert.match(String(own.host), /^127\.0\.0\.1:\d+$/);
    },
    vectorNamespaceEnv('splunk_hec'),
  );
});

test('raw endpoint: the body is one event; the channel is required (header or query); gzip bodies; health and OPTIONS', async () => {
  await withHec({}, async (url, run) => {
    assert.equal(await post(`${url}/raw`, 'x'), { status: 400, body: '{"text":"Data channel is missing","code":10}' });
    assert.equal((await post(`${url}/raw?channel=q`, 'line one\nline two')).status, 200);
    assert.equal(
      (
        await post(`${url}/raw/1.0`, gzipSync('zipped'), {
          'x-splunk-request-channel': 'h',
          'content-encoding': 'gzip',
        })
      ).status,
      200,
    );
    assert.equal(
      run.events.map((e) => [Buffer.from(e.message as Uint8Array).toString(), e.splunk_channel, e.source_type]),
      [
        ['line one\nline two', 'q', 'splunk_hec'],
        ['zipped', 'h', 'splunk_hec'],
      ],
    );
    const health = await fetch(`${url}/health`);
    assert.is(health.status, 200);
    assert.is(await health.text(), '{"text":"HEC is healthy","code":17}');
    const options = await fetch(`${url}/event`, { method: 'OPTIONS' });
    assert.is(options.headers.get('allow'), 'POST');
    await options.text();
    assert.is((await fetch(`${url}/nowhere`)).status, 404);
  });
});

test("Splunk's errors: tokens, no data, invalid data (the objects before it are sent), missing or blank event, encoding", async () => {
  await withHec({ valid_tokens: ['good'], token: 'old' }, async (url, run, env) => {
    const auth = { authorization: 'Splunk good' };
    assert.equal(await post(`${url}/event`, '{"event":"x"}'), {
      status: 401,
      body: '{"text":"Token is required","code":2}',
    });
    assert.equal(await post(`${url}/event`, '{"event":"x"}', { authorization: 'Splunk bad' }), {
      status: 401,
      body: '{"text":"Invalid authorization","code":3}',
    });
    assert.is(
      (await post(`${url}/event`, '{"event":"deprecated token"}', { authorization: 'Splunk old' })).status,
      200,
    );
    assert.equal(await post(`${url}/event`, '  ', auth), { status: 400, body: '{"text":"No data","code":5}' });
    assert.equal(await post(`${url}/event`, '{"event":"kept"} {"event":', auth), {
      status: 400,
      body: '{"text":"Invalid data format","code":6,"invalid-event-number":1}',
    });
    assert.equal(await post(`${url}/event`, '{"event":"a"}{"fields":{}}', auth), {
      status: 400,
      body: '{"text":"Event field is required","code":12,"invalid-event-number":1}',
    });
    assert.equal(await post(`${url}/event`, '{"event":""}', auth), {
      status: 400,
      body: '{"text":"Event field cannot be blank","code":13,"invalid-event-number":0}',
    });
    assert.equal(await post(`${url}/event`, '{"event":"x"}', { ...auth, 'content-encoding': 'br' }), {
      status: 415,
      body: '',
    });
    assert.equal(await post(`${url}/event`, gzipSync('{"event":"zipped"}'), { ...auth, 'content-encoding': 'gzip' }), {
      status: 200,
      body: '{"text":"Success","code":0}',
    });
    assert.equal(
      run.events.map((e) => e.message),
      ['deprecated token', 'kept', 'a', 'zipped'],
    );
    assert.is(env.metrics.total('component_errors_total', { error_type: 'authentication_failed' }), 2);
    assert.is(env.metrics.total('component_errors_total', { error_type: 'request_failed' }), 5);
    assert.is(env.metrics.total('component_errors_total', { error_type: 'parser_failed' }), 1);
  });
});

test('a body past --max-decompressed-size-bytes is refused with 413, counted', async () => {
  await withHec(
    {},
    async (url, _run, env) => {
      assert.equal(await post(`${url}/event`, `{"event":"${'x'.repeat(64)}"}`), { status: 413, body: '' });
      assert.is(env.metrics.total('component_errors_total', { error_type: 'request_failed' }), 1);
    },
    testEnv('splunk_hec', { maxDecompressedSize: 32 }),
  );
});

test('store_hec_token keeps the token of each request in its events metadata', async () => {
  await withHec({ store_hec_token: true }, async (url, run) => {
    await post(`${url}/event`, '{"event":"a"}', { authorization: 'Splunk tok-1' });
    await post(`${url}/raw?channel=c`, 'b', { authorization: 'Splunk tok-2' });
    await post(`${url}/event`, '{"event":"c"}');
    assert.equal(run.metadata, [{ splunk_hec_token: 'tok-1' }, { splunk_hec_token: 'tok-2' }, {}]);
  });
});

test('indexer acknowledgements: an ack id per request and channel, reported indexed once the sinks delivered', async () => {
  await withHec({ acknowledgements: { enabled: true, max_number_of_ack_channels: 2 } }, async (url, run) => {
    const channel = { 'x-splunk-request-channel': 'c1' };
    assert.equal(await post(`${url}/event`, '{"event":"a"}'), {
      status: 400,
      body: '{"text":"Data channel is missing","code":10}',
    });
    assert.equal(await post(`${url}/event`, '{"event":"a"}', channel), {
      status: 200,
      body: '{"text":"Success","code":0,"ackId":0}',
    });
    assert.equal(await post(`${url}/raw`, 'b', channel), {
      status: 200,
      body: '{"text":"Success","code":0,"ackId":1}',
    });
    assert.equal(await post(`${url}/event`, '{"event":"c"}', { 'x-splunk-request-channel': 'c2' }), {
      status: 200,
      body: '{"text":"Success","code":0,"ackId":0}',
    });
    // A third channel is past max_number_of_ack_channels.
    assert.equal(await post(`${url}/event`, '{"event":"d"}', { 'x-splunk-request-channel': 'c3' }), {
      status: 503,
      body: '{"text":"Server is busy","code":9}',
    });
    const query = (ids: number[]) =>
      post(`${url}/ack`, JSON.stringify({ acks: ids }), { ...channel, 'content-type': 'application/json' });
    assert.equal(await query([0, 1]), { status: 200, body: '{"acks":{"0":false,"1":false}}' });
    run.batches[0]!.finalizer!.release();
    run.batches[1]!.finalizer!.release('rejected');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await query([0, 1]), { status: 200, body: '{"acks":{"0":true,"1":false}}' });
    // Reported once, then forgotten.
    assert.equal(await query([0]), { status: 200, body: '{"acks":{"0":false}}' });
    assert.equal(await post(`${url}/ack`, 'nope', { ...channel, 'content-type': 'application/json' }), {
      status: 400,
      body: '',
    });
    assert.equal(await post(`${url}/ack`, '{"acks":[0]}', { ...channel, 'content-type': 'text/plain' }), {
      status: 415,
      body: "The request's content-type is not supported",
    });
  });
  await withHec({}, async (url) => {
    const headers = { 'x-splunk-request-channel': 'c', 'content-type': 'application/json' };
    assert.equal(await post(`${url}/ack`, '{"acks":[0]}', headers), {
      status: 400,
      body: '{"text":"Ack is disabled","code":14}',
    });
  });
});

test('round trip: splunk_hec_logs into the source with indexer acknowledgements; the stored token is the one the next sink sends', async () => {
  const target = await httpTarget(() => ({ status: 200, body: { text: 'Success', code: 0 } }));
  const sinkOf = async (endpoint: string) =>
    buildSplunkHecLogsSink(
      splunkHecLogs.options.parse({
        endpoint,
        default_token: 'default-token',
        encoding: { codec: 'json' },
        acknowledgements: { query_interval: 1 },
      }),
      componentEnv(splunkHecLogs),
      instantTimer().timer,
    );
  await withHec(
    { valid_tokens: ['default-token', 'client-token'], store_hec_token: true, acknowledgements: true },
    async (url, run) => {
      // A client with its own token.
      await post(`${url}/event`, '{"event":{"message":"from client"}}', {
        authorization: 'Splunk client-token',
        'x-splunk-request-channel': 'client',
      });
      // svc's own splunk_hec_logs, acknowledged once the source's sinks delivered.
      const upstream = await sinkOf(url.replace('/services/collector', ''));
      let delivered = false;
      await upstream.write({
        ...logBatch([{ message: 'from svc' }]),
        finalizer: new BatchNotifier((status) => (delivered = status === 'delivered')),
      });
      await run.waitFor(2);
      for (const batch of run.batches) batch.finalizer?.release();
      await upstream.close();
      assert.ok(delivered);
      assert.equal(run.metadata, [{ splunk_hec_token: 'client-token' }, { splunk_hec_token: 'default-token' }]);
      // Both on to another Splunk: each with the token it came with.
      const downstream = await sinkOf(target.uri);
      for (const batch of run.batches) await downstream.write({ bytes: batch.bytes, count: batch.count });
      await downstream.close();
      await waitFor(
        () => target.requests.length === 2,
        () => `2 requests, got ${target.requests.length}`,
      );
      assert.equal(
        target.requests
          .map((request) => [request.headers.authorization, JSON.parse(request.body.toString()).event.message])
          .sort(),
        [
          ['Splunk client-token', 'from client'],
          ['Splunk default-token', 'from svc'],
        ],
      );
    },
  );
  await target.close();
});

test.run();
