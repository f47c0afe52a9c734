// `api.tls`: the API over HTTPS and WSS with the sources' server TLS options, its clients verifying the
// server's certificate; a bad certificate stops the start-up and `validate`, naming the option.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { makeCertificates } from '../support/certificates.js';
import { runSvc, tempDir } from '../support/svc.js';
import { IDLE_PIPELINE, startApiInstance } from './support.js';

const certificates = makeCertificates();
const tls = `tls: { enabled: true, crt_file: ${certificates.serverCrt}, key_file: ${certificates.serverKey} }`;

test('with api.tls, /health and /graphql answer over HTTPS and subscriptions over WSS', async () => {
  const api = await startApiInstance(IDLE_PIPELINE, tls);
  const ca = readFileSync(certificates.ca);
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const base = api.base.replace('http:', 'https:');
    const health = await request(`${base}/health`, { dispatcher });
    assert.is(health.statusCode, 200);
    assert.equal(await health.body.json(), { ok: true });
    const answer = await request(`${base}/graphql`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ health }' }),
    });
    assert.equal(await answer.body.json(), { data: { health: true } });
    // Plain HTTP gets no answer from a TLS server.
    await request(`${api.base}/health`).then(
      () => assert.unreachable('answered over plain HTTP'),
      (error: Error) => assert.ok(error instanceof Error),
    );
    const socket = new WebSocket(api.ws.replace('ws:', 'wss:'), 'graphql-transport-ws', { ca });
    const acked = new Promise<string>((resolve, reject) => {
      socket.on('message', (data) => resolve(String(data)));
      socket.on('error', reject);
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    assert.equal(JSON.parse(await acked), { type: 'connection_ack' });
    socket.close();
  } finally {
    await dispatcher.close();
    await api.stop();
  }
});

test('a missing certificate for the API fails validate and the start-up, naming api.tls.crt_file', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  const missing = join(dir, 'none.crt');
  writeFileSync(
    config,
    `api: { enabled: true, address: "127.0.0.1:0", tls: { enabled: true, crt_file: ${missing}, key_file: ${certificates.serverKey} } }\n${IDLE_PIPELINE}`,
  );
  const validated = await runSvc(['validate', '--no-environment', config]);
  assert.is(validated.status, 0, 'without the environment checks, the files are not read');
  const checked = await runSvc(['validate', config]);
  assert.is(checked.status, 78);
  assert.match(checked.stdout, `api.tls.crt_file`);
  assert.match(checked.stdout, missing);
  const started = await runSvc(['--config', config], { stdin: '' });
  assert.is.not(started.status, 0);
  assert.match(started.stderr, /api\.tls\.crt_file/);
});

test.run();
