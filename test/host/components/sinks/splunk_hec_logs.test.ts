// The splunk_hec_logs sink against a local server playing Splunk's HTTP Event Collector: the event endpoint's
// concatenated HEC objects (event, fields, time, host, index, source, sourcetype), the raw endpoint's query
// string per metadata, indexer acknowledgements (`ackId`, then `/services/collector/ack` until it says
// indexed, or rejected after retry_limit queries), retries, a rejected request and the healthcheck.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import splunk, { buildSplunkHecLogsSink } from '../../../../host/components/sinks/splunk_hec_logs.js';
import { Timestamp } from '../../../../runtime/index.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { type Answer, httpTarget, instantTimer, type Received } from '../../support/http-target.js';
import { waitFor } from '../../../support/wait-for.js';

async function build(options: object, timer = instantTimer().timer) {
  const env = componentEnv(splunk);
  const sink = await buildSplunkHecLogsSink(
    splunk.options.parse({ default_token: 'tok', encoding: { codec: 'json' }, ...options }),
    env,
    timer,
  );
  return { env, sink };
}

/** The JSON objects written one after another in a body, as HEC reads them. */
function concatenatedJson(text: string): object[] {
  const objects: object[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      objects.push(JSON.parse(text.slice(start, i + 1)));
      start = i + 1;
    }
  }
  assert.is(start, text.length, 'nothing but objects');
  return objects;
}

const at = (ms: number) => new Timestamp(BigInt(ms) * 1_000_000n);
const posts = (requests: Received[]) =>
  requests.filter(
    (request) =>
      request.url.startsWith('/services/collector/event') || request.url.startsWith('/services/collector/raw'),
  );
/** A HEC server with indexer acknowledgements off. */
const noAcks: Answer = { status: 200, body: { text: 'Success', code: 0 } };

test('event endpoint: HEC objects with the event, indexed fields, time, host and rendered metadata; the token and a channel', async () => {
  const target = await httpTarget(() => noAcks);
  const { sink } = await build({
    endpoint: `${target.uri}/`,
    index: 'idx-{{ app }}',
    sourcetype: '_json',
    source: '{{ file }}',
    indexed_fields: ['app', 'missing'],
  });
  await sink.write(
    logBatch([
      { message: 'one', app: 'web', file: '/var/log/a', host: 'box-1', timestamp: at(1638366107111) },
      { message: 'two', app: 'db', host: 'box-2' },
    ]),
  );
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
  const request = target.requests[0]!;
  assert.is(request.url, '/services/collector/event');
  assert.is(request.headers.authorization, 'Splunk tok');
  assert.is(request.headers['content-type'], 'application/json');
  assert.match(
    String(request.headers['x-splunk-request-channel']),
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  );
  assert.equal(concatenatedJson(request.body.toString()), [
    {
      event: { app: 'web', file: '/var/log/a', host: 'box-1', message: 'one' },
      fields: { app: 'web' },
      time: 1638366107.111,
      host: 'box-1',
      index: 'idx-web',
      source: '/var/log/a',
      sourcetype: '_json',
    },
    // No `file`: no source (a template error, not a drop); no timestamp: no time.
    {
      event: { app: 'db', host: 'box-2', message: 'two' },
      fields: { app: 'db' },
      host: 'box-2',
      index: 'idx-db',
      sourcetype: '_json',
    },
  ]);
});

test('time: seconds with the milliseconds, truncated toward zero also before 1970; no indexed fields: an empty fields object', async () => {
  const target = await httpTarget(() => noAcks);
  const { sink } = await build({ endpoint: target.uri });
  const nanos = (n: bigint) => new Timestamp(n);
  await sink.write(
    logBatch([
      { message: 'after', timestamp: nanos(1_500_999_999n) },
      { message: 'before', timestamp: nanos(-1_500_999_999n) },
      { message: 'exact', timestamp: nanos(-2_000_000_000n) },
    ]),
  );
  await sink.close();
  await target.close();
  assert.equal(concatenatedJson(posts(target.requests)[0]!.body.toString()), [
    { event: { message: 'after' }, fields: {}, time: 1.5 },
    { event: { message: 'before' }, fields: {}, time: -1.5 },
    { event: { message: 'exact' }, fields: {}, time: -2 },
  ]);
});

test('a text codec sends the line as a string; auto_extract_timestamp leaves the timestamp in the event and says so in the query', async () => {
  const target = await httpTarget(() => noAcks);
  const { sink } = await build({
    endpoint: target.uri,
    encoding: { codec: 'text' },
    auto_extract_timestamp: true,
    host_key: '',
  });
  await sink.write(logBatch([{ message: 'plain line', host: 'box', timestamp: at(1000) }]));
  await sink.close();
  await target.close();
  const request = target.requests[0]!;
  assert.is(request.url, '/services/collector/event?auto_extract_timestamp=true');
  assert.equal(concatenatedJson(request.body.toString()), [{ event: 'plain line', fields: {} }]);
});

test('raw endpoint: encoded events back to back, batched per source/sourcetype/index/host in the query string', async () => {
  const target = await httpTarget(() => noAcks);
  const { sink } = await build({
    endpoint: target.uri,
    endpoint_target: 'raw',
    encoding: { codec: 'text' },
    source: 'app {{ app }}',
    sourcetype: 'st',
  });
  await sink.write(
    logBatch([
      { message: 'a1', app: 'a', host: 'h' },
      { message: 'b1', app: 'b', host: 'h' },
      { message: 'a2', app: 'a', host: 'h' },
    ]),
  );
  await sink.close();
  await target.close();
  const byUrl = Object.fromEntries(posts(target.requests).map((request) => [request.url, request.body.toString()]));
  assert.equal(byUrl, {
    '/services/collector/raw?source=app%20a&sourcetype=st&host=h': 'a1a2',
    '/services/collector/raw?source=app%20b&sourcetype=st&host=h': 'b1',
  });
});

test('indexer acknowledgements: delivered only once /services/collector/ack says indexed; rejected after retry_limit queries without it', async () => {
  const indexed = new Set<number>();
  const ackQueries: Array<{ acks: number[]; channel: string }> = [];
  let nextAck = 7;
  const target = await httpTarget((request) => {
    if (request.url === '/services/collector/ack') {
      const { acks } = JSON.parse(request.body.toString()) as { acks: number[] };
      ackQueries.push({ acks, channel: String(request.headers['x-splunk-request-channel']) });
      return { status: 200, body: { acks: Object.fromEntries(acks.map((id) => [id, indexed.has(id)])) } };
    }
    return { status: 200, body: { text: 'Success', code: 0, ackId: nextAck++ } };
  });
  const statuses: BatchStatus[] = [];
  const acked = (message: string) => ({
    ...logBatch([{ message }]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  const { env, sink } = await build({
    endpoint: target.uri,
    acknowledgements: { query_interval: 1, retry_limit: 2 },
  });
  await sink.write(acked('first'));
  await waitFor(
    () => ackQueries.length === 1,
    () => 'an acknowledgement query',
  );
  // Accepted with ack id 7, not indexed yet: not delivered.
  assert.equal(ackQueries[0]!.acks, [7]);
  assert.is(ackQueries[0]!.channel, String(posts(target.requests)[0]!.headers['x-splunk-request-channel']));
  assert.equal(statuses, []);
  assert.is(env.metrics.total('splunk_pending_acks'), 1);
  indexed.add(7);
  await waitFor(
    () => statuses.length === 1,
    () => `the acknowledgement, after ${ackQueries.length} queries`,
  );
  assert.equal(statuses, ['delivered']);
  assert.is(env.metrics.total('splunk_pending_acks'), 0);
  // Ack id 8 is never indexed: rejected after two queries.
  await sink.write(acked('never indexed'));
  await sink.close();
  await target.close();
  assert.equal(statuses, ['delivered', 'rejected']);
  assert.equal(
    ackQueries.slice(-2).map((query) => query.acks),
    [[8], [8]],
  );
});

test('503 retried until accepted; 400 rejects; a server without acknowledgements delivers on its 200', async () => {
  const answers: Answer[] = [{ status: 503 }, noAcks, { status: 400, body: { text: 'Invalid data format', code: 6 } }];
  const target = await httpTarget((_request, index) => answers[index]!);
  const statuses: BatchStatus[] = [];
  const acked = (message: string) => ({
    ...logBatch([{ message }]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  const { timer, waits } = instantTimer();
  const { env, sink } = await build({ endpoint: target.uri, batch: { max_events: 1 } }, timer);
  await sink.write(acked('retried'));
  await waitFor(
    () => statuses.length === 1,
    () => 'the first acknowledgement',
  );
  await sink.write(acked('refused'));
  await sink.close();
  await target.close();
  assert.equal(waits, [501]);
  assert.equal(statuses, ['delivered', 'rejected']);
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 1);
});

test('healthcheck: 200 healthy, 400 an invalid token, 503 full queues; options: auto_extract_timestamp refused with raw', async () => {
  for (const [status, expected] of [
    [200, undefined],
    [400, 'Invalid HEC token'],
    [503, 'Queues are full'],
  ] as const) {
    const target = await httpTarget(() => ({ status }));
    const { sink } = await build({ endpoint: target.uri });
    const error = await sink.healthcheck!({}).then(
      () => undefined,
      (failure: Error) => failure.message,
    );
    assert.is(error, expected);
    assert.is(target.requests[0]!.url, '/services/collector/health/1.0');
    assert.is(target.requests[0]!.headers.authorization, 'Splunk tok');
    await sink.close();
    await target.close();
  }
  const issues = splunk.options
    .safeParse({
      endpoint: 'http://localhost:8088',
      default_token: 't',
      encoding: { codec: 'json' },
      endpoint_target: 'raw',
      auto_extract_timestamp: false,
    })
    .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  assert.equal(issues, ['auto_extract_timestamp: `auto_extract_timestamp` cannot be set for the `raw` endpoint']);
  const parsed = splunk.options.parse({
    endpoint: 'http://localhost:8088',
    default_token: 't',
    encoding: { codec: 'json' },
    acknowledgements: false,
  });
  assert.equal(parsed.acknowledgements, {
    enabled: false,
    indexer_acknowledgements_enabled: true,
    query_interval: 10,
    retry_limit: 30,
    max_pending_acks: 1_000_000,
  });
});

test.run();
