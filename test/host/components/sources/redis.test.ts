// The redis source against a real redis-server, fed by the redis sink: list and channel round trips, and
// streams read through a consumer group, acknowledged (XACK) only once the sinks delivered; a batch given
// up on stays pending and a dead consumer's pending entries are claimed by another.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import redis from '../../../../host/components/sources/redis.js';
import redisSink, { buildRedisSink } from '../../../../host/components/sinks/redis.js';
import type { SourceDefinition } from '../../../../host/components/component.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { waitFor } from '../../../support/wait-for.js';

let server: RedisServer;
test.before(async () => {
  server = await startRedisServer();
});
test.after(async () => {
  await server.stop();
});

const source = redis as SourceDefinition;

/** Writes `messages` through the redis sink with `options` and waits for the batch's delivery. */
async function write(options: object, messages: string[]): Promise<void> {
  const sink = await buildRedisSink(
    redisSink.options.parse({ endpoint: server.url, encoding: { codec: 'text' }, ...options }),
    componentEnv(redisSink),
  );
  let status: BatchStatus | undefined;
  const finalizer = new BatchNotifier((given) => (status = given));
  await sink.write({ ...logBatch(messages.map((message) => ({ message }))), finalizer });
  await waitFor(
    () => status !== undefined,
    () => 'no status',
  );
  assert.is(status, 'delivered');
  await sink.close();
}

test('list: what the sink pushes, the source pops, in order, stamped with the key', async () => {
  const built = await buildSource(source, { url: server.url, key: 'logs', redis_key: 'redis_key' }, testEnv('redis'));
  const run = runSource(built);
  try {
    await write({ key: 'logs', data_type: 'list' }, ['one', 'two', 'three']);
    await run.waitFor(3);
    assert.equal(
      run.events.map((event) => event.message),
      ['one', 'two', 'three'],
    );
    assert.is(run.events[0]!.redis_key, 'logs');
    assert.is(run.events[0]!.source_type, 'redis');
  } finally {
    run.shutdown.abort();
    await run.done;
    await built.acknowledged?.();
  }
});

test('channel: what the sink publishes reaches a built source', async () => {
  const built = await buildSource(source, { url: server.url, key: 'news', data_type: 'channel' }, testEnv('redis'));
  const run = runSource(built);
  try {
    await write({ key: 'news', data_type: 'channel' }, ['a', 'b']);
    await run.waitFor(2);
    assert.equal(
      run.events.map((event) => event.message),
      ['a', 'b'],
    );
  } finally {
    run.shutdown.abort();
    await run.done;
    await built.acknowledged?.();
  }
});

test('stream: acknowledged once delivered; given up on, read again; a dead consumer claimed', async () => {
  const client = createClient({ url: server.url });
  await client.connect();
  const pending = async () => Number(((await client.sendCommand(['XPENDING', 'events', 'group'])) as unknown[])[0]);
  const stream = { group: 'group', claim_idle_ms: 1000 };
  const options = { url: server.url, key: 'events', data_type: 'stream' };
  const first = await buildSource(
    source,
    { ...options, stream: { ...stream, consumer: 'first' } },
    testEnv('redis', { acknowledgements: true }),
  );
  const run = runSource(first);
  let second: ReturnType<typeof runSource> | undefined;
  const built = [first];
  try {
    await write({ key: 'events', data_type: 'stream' }, ['e0', 'e1', 'e2', 'e3']);
    await run.waitFor(4);
    assert.is(await pending(), 4, 'unacknowledged while the sinks hold them');
    // The first batch errored: it stays pending and comes back on restart; the others are acknowledged.
    const [head, ...rest] = run.batches;
    head!.finalizer!.release('errored');
    for (const batch of rest) batch.finalizer!.release();
    const left = head!.count;
    for (let asked = 0; asked < 500 && (await pending()) !== left; asked++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is(await pending(), left);
    // The first consumer stops with entries pending (as if it died); a second one claims them once idle.
    run.shutdown.abort();
    await run.done;
    await first.acknowledged?.();
    const other = await buildSource(
      source,
      { ...options, stream: { ...stream, consumer: 'second' } },
      testEnv('redis', { acknowledgements: true }),
    );
    built.push(other);
    second = runSource(other);
    await second.waitFor(left);
    assert.equal(
      second.events.map((event) => event.message),
      run.events.slice(0, left).map((event) => event.message),
    );
    for (const batch of second.batches) batch.finalizer!.release();
    for (let asked = 0; asked < 500 && (await pending()) !== 0; asked++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is(await pending(), 0);
  } finally {
    run.shutdown.abort();
    second?.shutdown.abort();
    await Promise.all([run.done, second?.done]);
    await Promise.all(built.map((one) => one.acknowledged?.()));
    await client.close();
  }
});

test('stream: a stream deleted under a running source is made again with its group, and read on', async () => {
  const client = createClient({ url: server.url });
  await client.connect();
  const built = await buildSource(
    source,
    { url: server.url, key: 'gone', data_type: 'stream', stream: { group: 'g', consumer: 'c' } },
    testEnv('redis'),
  );
  const run = runSource(built);
  try {
    await write({ key: 'gone', data_type: 'stream' }, ['before']);
    await run.waitFor(1);
    await client.del('gone');
    // Written after the group is made again: the sink would otherwise make a stream without the group.
    const groups = async () => {
      try {
        return ((await client.sendCommand(['XINFO', 'GROUPS', 'gone'])) as unknown[]).length;
      } catch {
        return 0;
      }
    };
    for (let asked = 0; asked < 500 && (await groups()) === 0; asked++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await write({ key: 'gone', data_type: 'stream' }, ['after']);
    await run.waitFor(2);
    assert.equal(
      run.events.map((event) => event.message),
      ['before', 'after'],
    );
  } finally {
    run.shutdown.abort();
    await run.done;
    await built.acknowledged?.();
    await client.close();
  }
});

test('a server that does not answer fails the build, naming it', async () => {
  await buildSource(source, { url: 'redis://127.0.0.1:1', key: 'x' }, testEnv('redis')).then(
    () => assert.unreachable('built'),
    (error: Error) => assert.match(error.message, 'could not connect to Redis at redis://127.0.0.1:1'),
  );
});

test.run();
