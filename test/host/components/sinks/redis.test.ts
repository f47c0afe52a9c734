// The redis sink against a real redis-server: each event pushed onto the list its key renders (`rpush` by
// default, `lpush`), or appended to a stream (its `message` field); delivered once the server answered.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import redis, { buildRedisSink } from '../../../../host/components/sinks/redis.js';
import { BatchNotifier, type BatchStatus, type EventBatch } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { steppedTimer } from '../../support/stepped-timer.js';
import { waitFor } from '../../../support/wait-for.js';

let server: RedisServer;
test.before(async () => {
  server = await startRedisServer();
});
test.after(async () => {
  await server.stop();
});

function tracked(events: object[]): { batch: EventBatch; status: () => BatchStatus | undefined } {
  let status: BatchStatus | undefined;
  const finalizer = new BatchNotifier((given) => (status = given));
  return { batch: { ...logBatch(events), finalizer }, status: () => status };
}

async function written(options: object, events: object[]): Promise<void> {
  const sink = await buildRedisSink(
    redis.options.parse({ endpoint: server.url, encoding: { codec: 'text' }, ...options }),
    componentEnv(redis),
  );
  try {
    const { batch, status } = tracked(events);
    await sink.write(batch);
    await waitFor(
      () => status() !== undefined,
      () => 'no status',
    );
    assert.is(status(), 'delivered');
  } finally {
    await sink.close();
  }
}

test('list: each event on the list its key renders, rpush by default, lpush on demand', async () => {
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    await written({ key: 'team-{{ team }}' }, [
      { team: 'a', message: 'one' },
      { team: 'b', message: 'two' },
      { message: 'no team' },
      { team: 'a', message: 'three' },
    ]);
    assert.equal(await client.lRange('team-a', 0, -1), ['one', 'three']);
    assert.equal(await client.lRange('team-b', 0, -1), ['two']);
    await written({ key: 'pushed', list_option: { method: 'lpush' } }, [{ message: 'x' }, { message: 'y' }]);
    assert.equal(await client.lRange('pushed', 0, -1), ['y', 'x']);
    // A push carries up to batch.max_events elements: with 2, LPUSH x y then LPUSH z (the server counts them).
    await client.configResetStat();
    await written({ key: 'chunked', list_option: { method: 'lpush' }, batch: { max_events: 2 } }, [
      { message: 'x' },
      { message: 'y' },
      { message: 'z' },
    ]);
    assert.match(await client.info('commandstats'), /cmdstat_lpush:calls=2,/);
    assert.equal(await client.lRange('chunked', 0, -1), ['z', 'y', 'x']);
  } finally {
    await client.close();
  }
});

test('stream: each event one entry, its encoding in the message field', async () => {
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    await written({ key: 'lines', data_type: 'stream' }, [{ message: 'one' }, { message: 'two' }]);
    const entries = (await client.sendCommand(['XRANGE', 'lines', '-', '+'])) as Array<[string, string[]]>;
    assert.equal(
      entries.map(([, fields]) => fields),
      [
        ['message', 'one'],
        ['message', 'two'],
      ],
    );
  } finally {
    await client.close();
  }
});

test('a write the server refuses is retried with the backoff, then given up and counted', async () => {
  const client = createClient({ url: server.url });
  await client.connect();
  await client.set('not-a-list', 'string');
  const { timer, waits } = steppedTimer();
  const env = componentEnv(redis);
  const sink = await buildRedisSink(
    redis.options.parse({
      endpoint: server.url,
      key: 'not-a-list',
      encoding: { codec: 'text' },
      request: { retry_attempts: 1, retry_jitter_mode: 'None' },
    }),
    env,
    timer,
  );
  try {
    // RPUSH on a string: WRONGTYPE, retried once, then given up.
    const { batch, status } = tracked([{ message: 'nowhere' }]);
    await sink.write(batch);
    await waitFor(
      () => waits.length === 1,
      () => `${waits.length} retry waits`,
    );
    assert.is(waits[0]!.ms, 1000);
    waits[0]!.release();
    await waitFor(
      () => status() !== undefined,
      () => 'the batch is not settled',
    );
    assert.is(status(), 'errored');
    assert.is(env.metrics.total('component_errors_total'), 2);
  } finally {
    for (const wait of waits) wait.release();
    await sink.close();
    await client.close();
  }
});

test('a server that cannot be reached fails the build, naming it', async () => {
  const options = redis.options.parse({ endpoint: 'redis://127.0.0.1:1', key: 'k', encoding: { codec: 'json' } });
  await buildRedisSink(options, componentEnv(redis)).then(
    () => assert.unreachable('built'),
    (error: Error) => assert.match(error.message, 'could not connect to Redis at redis://127.0.0.1:1'),
  );
});

test.run();
