// eventdb_metrics against a local server answering an EventStoreDB-shaped `/stats` document: the nine metrics
// with their tags and values; a failed request and a document that is not the stats one counted as Vector
// counts them; the scrape through a proxy (and past it with no_proxy); the options' defaults.

import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import eventdbMetrics from '../../../../host/components/sources/eventdb_metrics.js';
import { proxySchema } from '../../../../host/config/common.js';
import { waitFor } from '../../../support/wait-for.js';
import { localProxy } from '../../support/proxy-server.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';

/** An EventStoreDB node's `/stats`, trimmed to a realistic subset (fields the source ignores included). */
const STATS = {
  proc: {
    startTime: '2026-11-28T10:00:00Z',
    id: 4242,
    mem: 201_326_592,
    cpu: 3.5,
    threadsCount: 31,
    thrownExceptionsRate: 0,
    diskIo: { readBytes: 1_048_576, writtenBytes: 524_288, readOps: 120, writeOps: 64 },
    tcp: { connections: 2 },
    gc: { allocationSpeed: 0 },
  },
  sys: {
    cpu: 12.5,
    freeMem: 3_221_225_472,
    loadavg: { '1m': 0.5, '5m': 0.4, '15m': 0.3 },
    drive: {
      '/var/lib/eventstore': {
        availableBytes: 50_000_000_000,
        totalBytes: 100_000_000_000,
        usage: '50%',
        usedBytes: 50_000_000_000,
      },
    },
  },
  es: { queue: {} },
};

/** A server answering each request with `answer()` (status and body); records the requests' headers. */
async function statsServer(answer: () => { status: number; body: string }) {
  const requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method!, url: request.url!, headers: request.headers });
    const { status, body } = answer();
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats`;
  return { endpoint, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Runs the source until its first scrape was handled: `until` holds for its env. */
async function scrapeOnce(
  options: object,
  until: (run: ReturnType<typeof runSource>, env: ReturnType<typeof testEnv>) => boolean,
  proxy?: object,
) {
  const env = testEnv('eventdb_metrics');
  if (proxy) env.proxy = proxySchema.parse(proxy);
  const run = runSource(await buildSource(eventdbMetrics, options, env));
  await waitFor(
    () => until(run, env),
    () => `events: ${run.events.length}, errors: ${env.metrics.total('component_errors_total')}`,
  );
  run.shutdown.abort();
  await run.done;
  return { run, env };
}

test('the stats document becomes the nine metrics, tagged with the node id (and the drive path), under the namespace', async () => {
  const body = JSON.stringify(STATS);
  const server = await statsServer(() => ({ status: 200, body }));
  try {
    const { run, env } = await scrapeOnce({ endpoint: server.endpoint }, (run) => run.events.length >= 9);
    assert.ok(run.kinds.every((kind) => kind === 'metric'));
    const byName = Object.fromEntries(run.events.map((event) => [event.name, event]));
    const value = (name: string) => byName[name]!;
    assert.equal(
      run.events.map((event) => event.name),
      [
        'process_memory_used_bytes',
        'disk_read_bytes_total',
        'disk_written_bytes_total',
        'disk_read_ops_total',
        'disk_write_ops_total',
        'memory_free_bytes',
        'disk_total_bytes',
        'disk_free_bytes',
        'disk_used_bytes',
      ],
    );
    assert.equal(value('process_memory_used_bytes').gauge, { value: 201_326_592 });
    assert.equal(value('disk_read_bytes_total').counter, { value: 1_048_576 });
    assert.equal(value('disk_written_bytes_total').counter, { value: 524_288 });
    assert.equal(value('disk_read_ops_total').counter, { value: 120 });
    assert.equal(value('disk_write_ops_total').counter, { value: 64 });
    assert.equal(value('memory_free_bytes').gauge, { value: 3_221_225_472 });
    assert.equal(value('disk_total_bytes').gauge, { value: 100_000_000_000 });
    assert.equal(value('disk_free_bytes').gauge, { value: 50_000_000_000 });
    assert.equal(value('disk_used_bytes').gauge, { value: 50_000_000_000 });
    for (const event of run.events) {
      assert.is(event.namespace, 'eventdb');
      assert.is(event.kind, 'absolute');
      // One scrape, one time.
      assert.equal(event.timestamp, run.events[0]!.timestamp);
    }
    assert.ok(run.events[0]!.timestamp !== undefined);
    assert.equal(value('memory_free_bytes').tags, { id: '4242' });
    assert.equal(value('disk_used_bytes').tags, { id: '4242', path: '/var/lib/eventstore' });
    assert.is(server.requests[0]!.method, 'GET');
    assert.is(server.requests[0]!.url, '/stats');
    assert.is(server.requests[0]!.headers['content-type'], 'application/json');
    assert.is(env.metrics.total('component_received_bytes_total'), Buffer.byteLength(body));
    assert.is(env.metrics.total('component_errors_total'), 0);
  } finally {
    await server.close();
  }
});

test('default_namespace names the metrics; a node without a drive gives the six process and memory ones', async () => {
  const { drive: _drive, ...sys } = STATS.sys;
  const server = await statsServer(() => ({ status: 200, body: JSON.stringify({ ...STATS, sys }) }));
  try {
    const { run } = await scrapeOnce(
      { endpoint: server.endpoint, default_namespace: 'esdb' },
      (run) => run.events.length >= 6,
    );
    assert.is(run.events.length, 6);
    assert.ok(run.events.every((event) => event.namespace === 'esdb'));
  } finally {
    await server.close();
  }
});

test('errors: a refused connection or an HTTP error status is request_failed, a document that is not the stats one parser_failed', async () => {
  const errors = (env: ReturnType<typeof testEnv>, type: string, stage: string) =>
    env.metrics.total('component_errors_total', { error_type: type, stage });
  const broken = await statsServer(() => ({ status: 200, body: JSON.stringify({ proc: { id: 1 }, sys: {} }) }));
  const failing = await statsServer(() => ({ status: 503, body: 'starting' }));
  try {
    const parse = await scrapeOnce(
      { endpoint: broken.endpoint },
      (_, env) => errors(env, 'parser_failed', 'processing') === 1,
    );
    assert.is(parse.run.events.length, 0);
    assert.match(String(parse.env.logs.at(-1)!.fields.error), /^proc\.mem: /);
    assert.is(parse.env.logs.at(-1)!.message, 'JSON parsing error.');

    const status = await scrapeOnce(
      { endpoint: failing.endpoint },
      (_, env) => errors(env, 'request_failed', 'receiving') === 1,
    );
    assert.is(status.env.logs.at(-1)!.fields.error, 'HTTP status 503');
    assert.is(status.env.logs.at(-1)!.message, 'HTTP request processing error.');

    await broken.close();
    const refused = await scrapeOnce(
      { endpoint: broken.endpoint },
      (_, env) => errors(env, 'request_failed', 'receiving') === 1,
    );
    assert.match(String(refused.env.logs.at(-1)!.fields.error), /ECONNREFUSED/);
  } finally {
    await Promise.all([broken.close(), failing.close()]);
  }
});

test('proxy: the scrape goes through the component’s proxy, and directly when no_proxy names the node', async () => {
  const server = await statsServer(() => ({ status: 200, body: JSON.stringify(STATS) }));
  const proxy = await localProxy();
  try {
    await scrapeOnce({ endpoint: server.endpoint }, (run) => run.events.length >= 9, { http: proxy.uri });
    assert.equal(proxy.requests, [`GET ${server.endpoint}`]);
    await scrapeOnce({ endpoint: server.endpoint }, (run) => run.events.length >= 9, {
      http: proxy.uri,
      no_proxy: ['127.0.0.1'],
    });
    assert.is(proxy.requests.length, 1);
    assert.is(server.requests.length, 2);
  } finally {
    await Promise.all([server.close(), proxy.close()]);
  }
});

test('options: Vector’s defaults, with the spec’s namespace; the interval is whole seconds', () => {
  assert.equal(eventdbMetrics.options.parse({}), {
    endpoint: 'https://localhost:2113/stats',
    scrape_interval_secs: 15,
    default_namespace: 'eventdb',
  });
  assert.not.ok(eventdbMetrics.options.safeParse({ scrape_interval_secs: 0.5 }).success);
  assert.not.ok(eventdbMetrics.options.safeParse({ endpoint: 'localhost:2113' }).success);
});

test.run();
