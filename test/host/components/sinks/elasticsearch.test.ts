// The elasticsearch sink against a local server that reads the bulk API as Elasticsearch does (NDJSON: an
// action line, then the document) and answers `GET /` with a version: bulk and data stream modes, ids,
// templates, the query string, doc_type for version 6, partial failures (with and without
// request_retry_partial), retries, rejected requests, acknowledgements, endpoints in turn and the healthcheck.

import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import elasticsearch, { buildElasticsearchSink } from '../../../../host/components/sinks/elasticsearch.js';
import { Timestamp } from '../../../../runtime/index.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { batchOf } from '../../support/components.js';
import { assertSigned } from '../../support/signature.js';
import { type Answer, httpTarget, instantTimer, type Received } from '../../support/http-target.js';

/** A server that answers `GET /` with `version` and bulk requests with `bulk` (all created by default). */
function elasticsearchServer(
  version = '8.11.1',
  bulk: (request: Received, index: number) => Answer = () => ({ status: 200, body: { errors: false, items: [] } }),
) {
  let bulkIndex = 0;
  return httpTarget((request) => {
    if (request.method === 'GET' && request.url === '/') return { status: 200, body: { version: { number: version } } };
    if (request.method === 'GET') return { status: 200, body: { status: 'green' } };
    return bulk(request, bulkIndex++);
  });
}

/** The bulk requests' items: action line and document, as Elasticsearch parses them. */
function bulkItems(request: Received, body = request.body): Array<[object, object]> {
  assert.is(request.headers['content-type'], 'application/x-ndjson');
  const text = body.toString();
  assert.ok(text.endsWith('\n'), 'the body ends with a newline');
  const lines = text.slice(0, -1).split('\n');
  const items: Array<[object, object]> = [];
  for (let i = 0; i < lines.length; i += 2) items.push([JSON.parse(lines[i]!), JSON.parse(lines[i + 1]!)]);
  return items;
}

const bulkRequests = (requests: Received[]) => requests.filter((request) => request.method === 'POST');

async function build(options: object, timer = instantTimer().timer) {
  const env = componentEnv(elasticsearch);
  const sink = await buildElasticsearchSink(elasticsearch.options.parse(options), env, timer);
  return { env, sink };
}

const day = new Timestamp(BigInt(Date.UTC(2026, 10, 28, 12)) * 1_000_000n);

test('bulk mode: templated index with strftime, id_key moved into _id, pipeline, query and headers, basic auth, gzip; version 8: no _type', async () => {
  const target = await elasticsearchServer();
  const { sink } = await build({
    endpoints: [`${target.uri}/`],
    bulk: { index: 'logs-{{ app }}-%Y.%m.%d' },
    id_key: 'doc_id',
    pipeline: 'clean',
    query: { refresh: 'true', routing: { value: 'r1' } },
    request: { headers: { 'X-Team': 'core' } },
    auth: { strategy: 'basic', user: 'elastic', password: 'pw' },
    compression: 'gzip',
  });
  await sink.write(
    logBatch([
      { message: 'one', app: 'web', doc_id: 'id-1', timestamp: day },
      { message: 'two', app: 'db', timestamp: day },
    ]),
  );
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => `${request.method} ${request.url}`),
    ['GET /', 'POST /_bulk?refresh=true&routing=r1&timeout=60s&pipeline=clean'],
  );
  const [probe, bulk] = target.requests as [Received, Received];
  const authorization = `Basic ${Buffer.from('elastic:pw').toString('base64')}`;
  assert.is(probe.headers.authorization, authorization);
  assert.is(bulk.headers.authorization, authorization);
  assert.is(bulk.headers['x-team'], 'core');
  assert.is(bulk.headers['content-encoding'], 'gzip');
  assert.equal(bulkItems(bulk, gunzipSync(bulk.body)), [
    [
      { index: { _id: 'id-1', _index: 'logs-web-2026.11.28' } },
      { app: 'web', message: 'one', timestamp: '2026-11-28T12:00:00Z' },
    ],
    [{ index: { _index: 'logs-db-2026.11.28' } }, { app: 'db', message: 'two', timestamp: '2026-11-28T12:00:00Z' }],
  ]);
});

test('api_version: version 6 names doc_type in action lines; a bulk.action template; an index that does not render goes to template_fallback_index; a probe that fails assumes 8', async () => {
  const six = await elasticsearchServer('6.8.23');
  const { env, sink } = await build({
    endpoints: [six.uri],
    doc_type: 'log',
    bulk: { index: '{{ app }}', action: '{{ op }}', template_fallback_index: 'fallback' },
  });
  await sink.write(
    logBatch([
      { message: 'a', app: 'web', op: 'create' },
      { message: 'b', op: 'index' },
      { message: 'c', app: 'web', op: 'delete' },
    ]),
  );
  await sink.close();
  await six.close();
  assert.equal(
    bulkItems(bulkRequests(six.requests)[0]!).map(([action]) => action),
    [{ create: { _index: 'web', _type: 'log' } }, { index: { _index: 'fallback', _type: 'log' } }],
  );
  // `delete` is no bulk action: the event is dropped and counted.
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 1);

  const broken = await httpTarget((request) =>
    request.method === 'GET' ? { status: 404, body: 'no' } : { status: 200 },
  );
  const { env: assumedEnv, sink: assumed } = await build({ endpoints: [broken.uri] });
  await assumed.write(logBatch([{ message: 'x' }]));
  await assumed.close();
  await broken.close();
  assert.ok(
    assumedEnv.logs.some((record) => record.message.startsWith('Failed to determine Elasticsearch API version')),
  );
  assert.equal(
    bulkItems(bulkRequests(broken.requests)[0]!).map(([action]) => Object.keys(Object.values(action)[0] as object)),
    [['_index']],
  );
});

test('bulk.version with external versioning: version_type and version in action lines of documents with an id; the deprecated endpoint', async () => {
  const target = await elasticsearchServer();
  const { env, sink } = await build({
    endpoint: target.uri,
    id_key: 'id',
    bulk: { index: 'docs', version: '{{ v }}', version_type: 'external' },
  });
  await sink.write(
    logBatch([
      { message: 'a', id: 'one', v: 5 },
      { message: 'b', id: 'two', v: 'x' },
    ]),
  );
  await sink.close();
  await target.close();
  assert.equal(
    bulkItems(bulkRequests(target.requests)[0]!).map(([action]) => action),
    [
      { index: { _id: 'one', _index: 'docs', version_type: 'external', version: 5 } },
      { index: { _id: 'two', _index: 'docs' } },
    ],
  );
  assert.ok(env.logs.some((record) => record.message === 'Cannot parse version "x" as integer'));
  assert.ok(env.logs.some((record) => record.message.startsWith('DEPRECATION, use of deprecated option `endpoint`')));
});

test('data_stream mode: create into type-dataset-namespace, auto-routed from the event, fields synced, timestamp as @timestamp', async () => {
  const target = await elasticsearchServer();
  const { sink } = await build({
    endpoints: [target.uri],
    mode: 'data_stream',
    data_stream: { dataset: '{{ service }}' },
  });
  await sink.write(
    logBatch([
      { message: 'routed', service: 'api', data_stream: { dataset: 'nginx', namespace: 'prod' }, timestamp: day },
      { message: 'templated', service: 'api', timestamp: day },
    ]),
  );
  await sink.close();
  await target.close();
  assert.equal(bulkItems(bulkRequests(target.requests)[0]!), [
    [
      { create: { _index: 'logs-nginx-prod' } },
      {
        '@timestamp': '2026-11-28T12:00:00Z',
        data_stream: { dataset: 'nginx', namespace: 'prod', type: 'logs' },
        message: 'routed',
        service: 'api',
      },
    ],
    [
      { create: { _index: 'logs-api-default' } },
      {
        '@timestamp': '2026-11-28T12:00:00Z',
        data_stream: { dataset: 'api', namespace: 'default', type: 'logs' },
        message: 'templated',
        service: 'api',
      },
    ],
  ]);
});

test('data_stream mode: id_key read after the fields are synced, a non-object event sent as {} with them, events alike', async () => {
  const target = await elasticsearchServer();
  const { sink } = await build({
    endpoints: [target.uri],
    mode: 'data_stream',
    id_key: 'data_stream.dataset',
    data_stream: { dataset: 'web' },
  });
  await sink.write(batchOf([{ message: 'one', service: 'api', timestamp: day }, { message: 'two' }, 'plain text']));
  await sink.close();
  await target.close();
  const synced = { namespace: 'default', type: 'logs' };
  const action = { create: { _id: 'web', _index: 'logs-web-default' } };
  assert.equal(bulkItems(bulkRequests(target.requests)[0]!), [
    [action, { '@timestamp': '2026-11-28T12:00:00Z', data_stream: synced, message: 'one', service: 'api' }],
    [action, { data_stream: synced, message: 'two' }],
    [action, { data_stream: synced }],
  ]);
});

/** A bulk response with these item statuses. */
const itemsAnswer = (statuses: number[]): Answer => ({
  status: 200,
  body: {
    took: 3,
    errors: statuses.some((status) => status >= 300),
    items: statuses.map((status) => ({
      index:
        status >= 300
          ? {
              status,
              error: {
                type: status === 400 ? 'mapper_parsing_exception' : 'es_rejected_execution_exception',
                reason: `failed with ${status}`,
              },
            }
          : { status },
    })),
  },
});

test('partial failures: request_retry_partial retries only the items that failed with 429 or 5xx; the others are given up and the batch rejected', async () => {
  const answers = [itemsAnswer([201, 429, 400, 503]), itemsAnswer([201, 201])];
  const target = await elasticsearchServer('8.0.0', (_request, index) => answers[index]!);
  const statuses: BatchStatus[] = [];
  const { env, sink } = await build({ endpoints: [target.uri], request_retry_partial: true });
  await sink.write({
    ...logBatch(['a', 'b', 'c', 'd'].map((message) => ({ message }))),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  await sink.close();
  await target.close();
  const bulks = bulkRequests(target.requests);
  assert.equal(
    bulks.map((request) => bulkItems(request).map(([, document]) => (document as { message: string }).message)),
    [
      ['a', 'b', 'c', 'd'],
      ['b', 'd'],
    ],
  );
  assert.equal(statuses, ['rejected']);
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 1);
  const dropped = env.logs.find((record) => record.message === 'Events dropped')!;
  assert.is(dropped.fields.reason, 'error type: es_rejected_execution_exception, reason: failed with 429');

  // Without request_retry_partial every failed item is given up, nothing retried.
  const once = await elasticsearchServer('8.0.0', () => itemsAnswer([201, 429, 400]));
  const { env: onceEnv, sink: noRetry } = await build({ endpoints: [once.uri] });
  await noRetry.write(logBatch(['a', 'b', 'c'].map((message) => ({ message }))));
  await noRetry.close();
  await once.close();
  assert.is(bulkRequests(once.requests).length, 1);
  assert.is(onceEnv.metrics.total('component_discarded_events_total', { intentional: 'false' }), 2);
});

test('a 500 is retried, a 408 or 400 is not (Vector retries 429 and 5xx but 501); acknowledgements follow; endpoints take requests in turn', async () => {
  const answers = [500, 200, 408];
  const first = await elasticsearchServer('8.0.0', (_request, index) => ({ status: answers[index]! }));
  const second = await elasticsearchServer('8.0.0', () => ({ status: 400, body: 'bad request' }));
  const statuses: BatchStatus[] = [];
  const acked = (message: string) => ({
    ...logBatch([{ message }]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  const { timer, waits } = instantTimer();
  const { env, sink } = await build({ endpoints: [first.uri, second.uri], batch: { max_events: 1 } }, timer);
  await sink.write(acked('retried'));
  await sink.write(acked('refused'));
  await sink.write(acked('timed out'));
  await sink.close();
  await first.close();
  await second.close();
  assert.equal(waits, [501]);
  assert.equal(
    bulkRequests(first.requests).map((request) => (bulkItems(request)[0]![1] as { message: string }).message),
    ['retried', 'retried', 'timed out'],
  );
  assert.equal(
    bulkRequests(second.requests).map((request) => (bulkItems(request)[0]![1] as { message: string }).message),
    ['refused'],
  );
  assert.equal(statuses.sort(), ['delivered', 'rejected', 'rejected']);
  const reasons = env.logs
    .filter((record) => record.message === 'Events dropped')
    .map((record) => record.fields.reason);
  assert.ok(reasons.includes('client-side error, 400: bad request'), String(reasons));
});

test('a refused request counts the events it carried: one left out building it is counted once', async () => {
  const target = await elasticsearchServer('8.0.0', () => ({ status: 400, body: 'bad' }));
  const { env, sink } = await build({ endpoints: [target.uri], bulk: { action: '{{ op }}' } });
  await sink.write(
    logBatch([
      { message: 'a', op: 'index' },
      { message: 'b', op: 'index' },
      { message: 'c', op: 'drop' },
    ]),
  );
  await sink.close();
  await target.close();
  assert.is(bulkItems(bulkRequests(target.requests)[0]!).length, 2);
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 3);
  assert.equal(
    env.logs.filter((record) => record.message === 'Events dropped').map((record) => record.fields.count),
    [2],
  );
});

test('healthcheck: /_cluster/health must answer 200, with the credentials of the endpoint URI; options: endpoints required, not two credentials', async () => {
  const target = await elasticsearchServer();
  const { sink } = await build({ endpoints: [target.uri.replace('//', '//ann:p%40ss@')], api_version: 'v8' });
  await sink.healthcheck!({});
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => `${request.method} ${request.url} ${request.headers.authorization}`),
    [`GET /_cluster/health Basic ${Buffer.from('ann:p@ss').toString('base64')}`],
  );
  const twice = elasticsearch.options.safeParse({
    endpoints: ['http://a:b@localhost:9200'],
    auth: { strategy: 'basic', user: 'a', password: 'b' },
  });
  assert.equal(
    twice.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    ['auth: Two authorization credentials was provided.'],
  );
  const issues = (options: object) =>
    elasticsearch.options.safeParse(options).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  assert.equal(issues({ endpoints: [] }), ['endpoints: Endpoints option must be specified']);
  assert.equal(issues({ endpoint: 'http://a:9200', endpoints: ['http://b:9200'] }), [
    'endpoint: `endpoint` and `endpoints` options are mutually exclusive. Please use `endpoints` option.',
  ]);
  assert.equal(issues({ endpoints: ['http://a:9200'], bulk: { version: '{{ v }}', version_type: 'external' } }), [
    'id_key: Cannot use external versioning without specifying a document ID',
  ]);
  assert.equal(issues({ endpoints: ['http://a:9200'], bulk: { version_type: 'external_gte' } }), [
    'bulk.version_type: Tried to use external versioning without specifying the version itself',
  ]);
  const parsed = elasticsearch.options.parse({ endpoints: ['http://localhost:9200'] });
  assert.is(parsed.bulk.index, 'vector-%Y.%m.%d');
  assert.is(parsed.bulk.action, 'index');
  assert.is(parsed.doc_type, '_doc');
  assert.equal(parsed.batch, { max_bytes: 10_000_000, timeout_secs: 1 });
});

const signer = { accessKeyId: 'KEY', secretAccessKey: 'SECRET' };

test('auth.strategy aws: the probe, bulk requests and the healthcheck signed for service es (aoss when serverless: no probe, no healthcheck, the payload hash sent); Vector checks', async () => {
  const target = await elasticsearchServer();
  const auth = { strategy: 'aws', access_key_id: 'KEY', secret_access_key: 'SECRET' };
  const { sink } = await build({ endpoints: [target.uri], auth, aws: { region: 'eu-west-1' }, compression: 'gzip' });
  await sink.healthcheck!({});
  await sink.write(logBatch([{ message: 'signed' }]));
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => `${request.method} ${request.url.split('?')[0]}`),
    ['GET /', 'GET /_cluster/health', 'POST /_bulk'],
  );
  for (const request of target.requests) assertSigned(request, signer, 'eu-west-1', 'es');

  const serverless = await elasticsearchServer();
  const { env, sink: collection } = await build({
    endpoints: [serverless.uri],
    auth,
    aws: { region: 'eu-west-1' },
    opensearch_service_type: 'serverless',
  });
  await collection.write(logBatch([{ message: 'signed' }]));
  await collection.healthcheck!({});
  await collection.close();
  await serverless.close();
  assert.equal(
    serverless.requests.map((request) => request.method),
    ['POST'],
  );
  const [bulk] = serverless.requests as [Received];
  assertSigned(bulk, signer, 'eu-west-1', 'aoss');
  assert.is(bulk.headers['x-amz-content-sha256'], createHash('sha256').update(bulk.body).digest('hex'));
  assert.ok(
    env.logs.some((record) => record.message.startsWith('Amazon OpenSearch Serverless does not support healthchecks')),
  );

  const issues = (options: object) =>
    elasticsearch.options
      .safeParse({ endpoints: ['http://a:9200'], ...options })
      .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  assert.equal(issues({ auth }), ['aws.region: aws.region required when AWS authentication is in use']);
  assert.equal(issues({ opensearch_service_type: 'serverless', api_version: 'v8' }), [
    'auth.strategy: Amazon OpenSearch Serverless requires `auth.strategy` value to be `aws`',
    'api_version: Amazon OpenSearch Serverless requires `api_version` value to be `auto`',
  ]);
});

test.run();
