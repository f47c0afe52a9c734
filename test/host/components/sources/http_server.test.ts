import { once } from 'node:events';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import httpServer, { httpSource, MAX_CONCURRENT_REQUESTS } from '../../../../host/components/sources/http_server.js';
import type { EventBatch } from '../../../../host/topology/batch.js';
import { DEFAULT_MAX_DECOMPRESSED_SIZE } from '../../../../runtime/services.js';
import { waitFor } from '../../../support/wait-for.js';
import type { SourceDefinition } from '../../../../host/components/component.js';
import type { TestEnv } from '../../support/env.js';
import { buildSource, runSource, sourceMetadata, testEnv, type Collected } from '../../support/sources.js';
import { freePort } from '../../support/svc.js';

/** Runs the source with `options` and gives `body` the base URL; shuts it down after. */
async function withServer(
  options: Record<string, unknown>,
  body: (url: string, run: Collected, env: TestEnv) => Promise<void>,
  definition: SourceDefinition = httpServer as SourceDefinition,
  env = testEnv('http_server'),
) {
  const port = await freePort();
  const run = runSource(await buildSource(definition, { address: `127.0.0.1:${port}`, ...options }, env));
  try {
    await body(`http://127.0.0.1:${port}`, run, env);
  } finally {
    run.shutdown.abort();
    await run.done;
  }
}

test('text: each line of a POST is an event with path, peer and source type; the answer is response_code', async () => {
  await withServer({ response_code: 202 }, async (url, run) => {
    const response = await fetch(`${url}/`, { method: 'POST', body: 'one\ntwo\n' });
    assert.is(response.status, 202);
    assert.equal(
      run.events.map((e) => e.message),
      ['one', 'two'],
    );
    assert.is(run.events[0]!.path, '/');
    assert.is(run.events[0]!.host, '127.0.0.1');
    assert.is(run.events[0]!.source_type, 'http_server');
  });
});

test('json and ndjson (legacy encoding and decoding/framing); headers and query parameters become fields', async () => {
  await withServer(
    { encoding: 'json', headers: ['User-Agent', 'X-Missing', 'x-my-*'], query_parameters: ['app', 'pa*'] },
    async (url, run) => {
      const response = await fetch(`${url}/?app=web&param1=a&other=no`, {
        method: 'POST',
        body: '[{"a":1},{"a":2,"app":"body"}]',
        headers: { 'User-Agent': 'test/1', 'X-My-Thing': 'yes' },
      });
      assert.is(response.status, 200);
      assert.equal(
        run.events.map((e) => e.a),
        [1n, 2n],
      );
      assert.is(run.events[0]!['User-Agent'], 'test/1');
      assert.is(run.events[0]!['X-Missing'], null);
      assert.is(run.events[0]!['x-my-thing'], 'yes');
      assert.is(run.events[0]!.app, 'web');
      assert.is(run.events[0]!.param1, 'a');
      assert.not.ok('other' in run.events[0]!);
    },
  );
  await withServer({ decoding: { codec: 'json' } }, async (url, run) => {
    const response = await fetch(url, { method: 'POST', body: '{"n":1}\n{"n":2}\n' });
    assert.is(response.status, 200);
    assert.equal(
      run.events.map((e) => e.n),
      [1n, 2n],
    );
  });
});

test('log_namespace: each line is an event; path, peer, headers and query parameters are in %http_server', async () => {
  await withServer(
    { log_namespace: true, headers: ['User-Agent', 'X-Missing', 'x-my-*'], query_parameters: ['app'], path_key: '' },
    async (url, run) => {
      const response = await fetch(`${url}/?app=web&other=no`, {
        method: 'POST',
        body: 'one\ntwo\n',
        headers: { 'User-Agent': 'test/1', 'X-My-Thing': 'yes' },
      });
      assert.is(response.status, 200);
      assert.equal(run.events, ['one', 'two']);
      assert.equal(sourceMetadata(run.metadata[1]!, 'http_server'), {
        headers: { 'User-Agent': 'test/1', 'X-Missing': null, 'x-my-thing': 'yes' },
        host: '127.0.0.1',
        path: '/',
        query_parameters: { app: 'web' },
      });
    },
  );
  // Without headers or query parameters to keep, the metadata has no object for them.
  await withServer({ log_namespace: true, decoding: { codec: 'json' } }, async (url, run) => {
    assert.is((await fetch(url, { method: 'POST', body: '{"n":1}\n' })).status, 200);
    assert.equal(run.events, [{ n: 1n }]);
    assert.equal(Object.keys(sourceMetadata(run.metadata[0]!, 'http_server')).sort(), ['host', 'path']);
  });
});

test('a gzip body is decompressed; an unknown encoding is 415; past the size limit is 413', async () => {
  await withServer(
    {},
    async (url, run) => {
      const gzipped = await fetch(url, {
        method: 'POST',
        body: gzipSync('packed\n'),
        headers: { 'Content-Encoding': 'gzip' },
      });
      assert.is(gzipped.status, 200);
      assert.equal(
        run.events.map((e) => e.message),
        ['packed'],
      );
      const unknown = await fetch(url, { method: 'POST', body: 'x', headers: { 'Content-Encoding': 'snappy' } });
      assert.is(unknown.status, 415);
      const bomb = await fetch(url, {
        method: 'POST',
        body: gzipSync(Buffer.alloc(4096, 'a')),
        headers: { 'Content-Encoding': 'gzip' },
      });
      assert.is(bomb.status, 413);
      const big = await fetch(url, { method: 'POST', body: Buffer.alloc(2048, 'a') });
      assert.is(big.status, 413);
      assert.is(run.events.length, 1);
    },
    httpServer as SourceDefinition,
    testEnv('http_server', { maxDecompressedSize: 1024 }),
  );
});

test('400 for an undecodable body with the reason; 405 for another method; 404 for another path', async () => {
  await withServer({ decoding: { codec: 'json' }, path: '/logs' }, async (url, run) => {
    const bad = await fetch(`${url}/logs`, { method: 'POST', body: '{"ok":1}\nnot json\n' });
    assert.is(bad.status, 400);
    assert.match(await bad.text(), 'Failed decoding body');
    assert.is(run.events.length, 0);
    assert.is((await fetch(`${url}/logs`, { method: 'PUT', body: '{}' })).status, 405);
    assert.is((await fetch(`${url}/logs/more`, { method: 'POST', body: '{}' })).status, 404);
  });
  await withServer({ path: '/logs', strict_path: false }, async (url, run) => {
    assert.is((await fetch(`${url}/logs/more`, { method: 'POST', body: 'x' })).status, 200);
    assert.is(run.events[0]!.path, '/logs/more');
  });
});

test('auth: the right basic credentials are taken; none or wrong ones are 401 with Vector’s reason', async () => {
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
  // `strategy` left out is Vector's default, basic.
  await withServer({ auth: { username: 'ann', password: 's3cret' } }, async (url, run, env) => {
    const accepted = await fetch(url, { method: 'POST', body: 'in', headers: { authorization: basic('ann:s3cret') } });
    assert.is(accepted.status, 200);
    const missing = await fetch(url, { method: 'POST', body: 'out' });
    assert.is(missing.status, 401);
    assert.is(await missing.text(), 'No authorization header');
    for (const wrong of [basic('ann:guess'), basic('ann:s3cret2'), 'Bearer s3cret']) {
      const refused = await fetch(url, { method: 'POST', body: 'out', headers: { authorization: wrong } });
      assert.is(refused.status, 401);
      assert.is(await refused.text(), 'Invalid username/password');
    }
    assert.equal(
      run.events.map((event) => event.message),
      ['in'],
    );
    assert.is(env.metrics.total('component_errors_total'), 4);
  });
  assert.throws(
    () =>
      httpServer.options.parse({ address: '127.0.0.1:1', auth: { strategy: 'bearer', username: 'a', password: 'b' } }),
    /basic/,
  );
});

test('auth custom: a remap program over headers, peer and path decides; the metadata it writes goes to the events', async () => {
  const source =
    '%tenant = .headers."x-tenant"\n%path = "not over the stamped path"\n' +
    '.headers.authorization == "Bearer t0ken" && .path == "/in" && .address == "127.0.0.1"';
  await withServer(
    { path: '/in', decoding: { codec: 'json' }, auth: { strategy: 'custom', source } },
    async (url, run, env) => {
      const headers = { authorization: 'Bearer t0ken', 'x-tenant': 'acme' };
      assert.is((await fetch(`${url}/in`, { method: 'POST', body: '{"n":1}', headers })).status, 200);
      // A field the body has is kept, as Vector inserts the program's fields only where absent.
      assert.is((await fetch(`${url}/in`, { method: 'POST', body: '{"n":2,"tenant":"own"}', headers })).status, 200);
      const refused = await fetch(`${url}/in`, {
        method: 'POST',
        body: '{"n":3}',
        headers: { authorization: 'Bearer no' },
      });
      assert.is(refused.status, 401);
      assert.is(await refused.text(), 'Auth failed');
      assert.equal(
        run.events.map((event) => [event.n, event.tenant, event.path]),
        [
          [1n, 'acme', '/in'],
          [2n, 'own', '/in'],
        ],
      );
      assert.is(env.metrics.total('component_errors_total'), 1);
    },
  );
  // A program that fails at run time refuses the request and says why in the log.
  await withServer({ auth: { strategy: 'custom', source: 'to_int!(.headers."x-n") > 0' } }, async (url, run, env) => {
    assert.is((await fetch(url, { method: 'POST', body: 'a', headers: { 'x-n': '2' } })).status, 200);
    const failed = await fetch(url, { method: 'POST', body: 'b', headers: { 'x-n': 'two' } });
    assert.is(failed.status, 401);
    assert.is(await failed.text(), 'Auth failed');
    assert.equal(
      run.events.map((event) => event.message),
      ['a'],
    );
    assert.ok(
      env.logs.some((record) => record.message.startsWith('Handling auth failed') && record.message.includes('to_int')),
    );
  });
});

test('auth custom: the event is read-only (E315) and the program must return a boolean', async () => {
  const built = (source: string) =>
    buildSource(
      httpServer as SourceDefinition,
      { address: '127.0.0.1:1', auth: { strategy: 'custom', source } },
      testEnv('http_server'),
    );
  for (const [source, expected] of [
    ['.user = "x"\ntrue', /auth\.source: error\[E315\]: mutation of read-only value/],
    [
      'del(.headers)\ntrue',
      /error\[E610\]: function compilation error: error\[E315\] mutation of read-only value[\s\S]*\.headers is read-only, and cannot be deleted/,
    ],
    ['.path', /VRL conditions must return a boolean/],
  ] as const) {
    await built(source).then(
      () => assert.unreachable(`${source} built`),
      (error: Error) => assert.match(error.message, expected),
    );
  }
  assert.throws(() => httpServer.options.parse({ address: '127.0.0.1:1', auth: { strategy: 'custom' } }), /source/);
});

test('the older name http works the same; encoding with decoding is an option error; a taken port fails the build', async () => {
  await withServer(
    {},
    async (url, run) => {
      assert.is((await fetch(url, { method: 'POST', body: 'old' })).status, 200);
      assert.is(run.events[0]!.message, 'old');
    },
    httpSource as SourceDefinition,
  );
  assert.not.ok(
    httpServer.options.safeParse({ address: '0.0.0.0:80', encoding: 'json', decoding: { codec: 'json' } }).success,
  );
  const port = await freePort();
  const blocker = createServer().listen(port, '127.0.0.1');
  await once(blocker, 'listening');
  try {
    await buildSource(httpServer, { address: `127.0.0.1:${port}` }, testEnv('http_server'));
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, `could not listen on 127.0.0.1:${port}`);
  } finally {
    blocker.close();
  }
});

test('the answer waits until downstream accepted the events', async () => {
  const port = await freePort();
  const run = runSource(await buildSource(httpServer, { address: `127.0.0.1:${port}` }, testEnv('http_server')), {
    delayMs: 100,
  });
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'slow\n' });
  assert.is(response.status, 200);
  assert.is(run.events.length, 1);
  assert.ok(Date.now() - started >= 90);
  run.shutdown.abort();
  await run.done;
});

test('with acknowledgements the answer waits for delivery: 200 delivered, 500 errored, 400 rejected', async () => {
  await withServer(
    {},
    async (url, run) => {
      const answers = ['one', 'two', 'three'].map((body) => fetch(`${url}/`, { method: 'POST', body }));
      await waitFor(
        () => run.batches.length === 3,
        () => `3 batches, got ${run.batches.length}`,
      );
      const byMessage = (message: string) =>
        run.batches[run.events.findIndex((event) => event.message === message)]!.finalizer!;
      const settled = [false, false, false];
      answers.forEach((answer, i) => void answer.then(() => (settled[i] = true)));
      byMessage('one').release();
      await answers[0];
      // The others are not answered before their events are delivered (or given up).
      assert.equal(settled, [true, false, false]);
      byMessage('two').release('errored');
      byMessage('three').release('rejected');
      const responses = await Promise.all(answers);
      assert.equal(
        responses.map((response) => response.status),
        [200, 500, 400],
      );
      assert.is(await responses[1]!.text(), 'Error delivering contents to sink');
    },
    httpServer as SourceDefinition,
    testEnv('http_server', { acknowledgements: true }),
  );
});

test('with acknowledgements, requests waiting for delivery hold no turn: more than the turns are in the pipeline at once', async () => {
  await withServer(
    {},
    async (url, run) => {
      const total = 4 * MAX_CONCURRENT_REQUESTS;
      const answers = Array.from({ length: total }, (_, i) => fetch(`${url}/`, { method: 'POST', body: `r${i}` }));
      // Every request's events reached downstream before any was delivered.
      await waitFor(
        () => run.batches.length === total,
        () => `${run.batches.length} of ${total} requests sent on while none was delivered`,
      );
      for (const batch of run.batches) batch.finalizer!.release();
      assert.equal(
        (await Promise.all(answers)).map((answer) => answer.status),
        Array(total).fill(200),
      );
    },
    httpServer as SourceDefinition,
    testEnv('http_server', { acknowledgements: true }),
  );
});

test('at shutdown a request waiting for delivery is answered once delivered, then its connection closes', async () => {
  const port = await freePort();
  const source = await buildSource(
    httpServer,
    { address: `127.0.0.1:${port}` },
    testEnv('http_server', { acknowledgements: true }),
  );
  const run = runSource(source);
  const answer = fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'late\n' });
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  const settled = source.acknowledged!();
  run.batches[0]!.finalizer!.release();
  const response = await answer;
  assert.is(response.status, 200);
  assert.is(response.headers.get('connection'), 'close');
  await settled;
});

test('a gzip bomb past the default --max-decompressed-size-bytes is 413; a normal gzip body goes on', async () => {
  await withServer({}, async (url, run) => {
    // 200 MiB of NULs in about 200 KB: refused once the output passes the cap, without holding it all.
    const bombed = gzipSync(Buffer.alloc(2 * DEFAULT_MAX_DECOMPRESSED_SIZE));
    assert.ok(bombed.length < 1024 * 1024);
    const bomb = await fetch(url, { method: 'POST', body: bombed, headers: { 'Content-Encoding': 'gzip' } });
    assert.is(bomb.status, 413);
    assert.is(await bomb.text(), `Decompressed body exceeds the limit of ${DEFAULT_MAX_DECOMPRESSED_SIZE} bytes`);
    const normal = await fetch(url, {
      method: 'POST',
      body: gzipSync('one\ntwo\n'),
      headers: { 'Content-Encoding': 'gzip' },
    });
    assert.is(normal.status, 200);
    assert.equal(
      run.events.map((e) => e.message),
      ['one', 'two'],
    );
  });
});

test('at most MAX_CONCURRENT_REQUESTS bodies are handled at once; the others wait their turn and are answered', async () => {
  const port = await freePort();
  const source = await buildSource(httpServer, { address: `127.0.0.1:${port}` }, testEnv('http_server'));
  const held: Array<() => void> = [];
  let accepted = 0;
  let mostAtOnce = 0;
  const shutdown = new AbortController();
  const done = source.run({
    send: async (_batch: EventBatch) => {
      await new Promise<void>((resolve) => held.push(resolve));
      accepted++;
    },
    shutdown: shutdown.signal,
  });
  const url = `http://127.0.0.1:${port}/`;
  const total = 2 * MAX_CONCURRENT_REQUESTS;
  const answers = Array.from({ length: total }, (_, i) => fetch(url, { method: 'POST', body: `request ${i}\n` }));
  await waitFor(
    () => held.length === MAX_CONCURRENT_REQUESTS,
    () => `${held.length} requests reached downstream`,
  );
  // A request answered without a turn (another path): the waiting ones have been received by now.
  assert.is((await fetch(`${url}elsewhere`, { method: 'POST', body: 'x' })).status, 404);
  while (accepted < total) {
    await waitFor(
      () => held.length > 0,
      () => `${accepted} of ${total} accepted`,
    );
    mostAtOnce = Math.max(mostAtOnce, held.length);
    held.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(
    (await Promise.all(answers)).map((answer) => answer.status),
    Array(total).fill(200),
  );
  assert.is(mostAtOnce, MAX_CONCURRENT_REQUESTS);
  shutdown.abort();
  await done;
});

test('keepalive.max_connection_age_secs: an answer on an older connection closes it', async () => {
  await withServer({ keepalive: { max_connection_age_secs: 0 } }, async (url) => {
    const connection = await new Promise<string | undefined>((resolve, reject) => {
      const sent = request(`${url}/`, { method: 'POST', agent: false }, (response) => {
        response.resume();
        resolve(response.headers.connection);
      });
      sent.on('error', reject);
      sent.end('line\n');
    });
    assert.is(connection, 'close');
  });
});

test.run();
