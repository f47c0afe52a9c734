// What svc tap and svc top share to reach an API: the WebSocket URL of an endpoint, and the health check
// they start with (exit 69 with the reason when nothing answers).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { requireHealthyApi, websocketUrl } from '../../cli/api-client.js';
import { CliError } from '../../cli/usage.js';
import { freePort } from '../host/support/svc.js';

test('the WebSocket URL of an http(s) endpoint', () => {
  assert.is(websocketUrl(new URL('http://127.0.0.1:8686/graphql')), 'ws://127.0.0.1:8686/graphql');
  assert.is(websocketUrl(new URL('https://example.test/api/graphql?x=1')), 'wss://example.test/api/graphql?x=1');
});

test('the health check of an endpoint where nothing listens exits 69 with the reason', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  try {
    await requireHealthyApi(new URL(url));
    assert.unreachable('the check passed');
  } catch (error) {
    assert.instance(error, CliError);
    assert.is((error as CliError).exitCode, 69);
    assert.is(
      (error as Error).message,
      `the API at ${url} is not reachable: connect ECONNREFUSED 127.0.0.1:${port} (is api.enabled true in the instance's configuration?)`,
    );
  }
});

test.run();
