// The nats source against a real nats-server: core subjects (with a queue group shared by two subscribers),
// JetStream durable consumers acknowledged once downstream took the events, and with end-to-end
// acknowledgements only once the sinks delivered them: a batch given up on is redelivered.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import nats from '../../../../host/components/sources/nats.js';
import type { SourceDefinition } from '../../../../host/components/component.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';
import { startNatsServer, type NatsServer } from '../../support/nats-server.js';
import { waitFor } from '../../../support/wait-for.js';

let server: NatsServer;
test.before(async () => {
  server = await startNatsServer();
});
test.after(async () => {
  await server.stop();
});

const source = nats as SourceDefinition;

test('core NATS: each message is an event with its subject; a queue group shares the messages', async () => {
  const options = { url: server.url, connection_name: 'test', subject: 'logs.>', queue: 'workers' };
  const built = await Promise.all([1, 2].map(() => buildSource(source, options, testEnv('nats'))));
  const [a, b] = built.map((one) => runSource(one));
  const client = await connect({ servers: server.url });
  try {
    // Built sources have subscribed: what is published now reaches them.
    for (let i = 0; i < 100; i++) client.publish(i % 2 ? 'logs.web' : 'logs.db', `line ${i}`);
    await client.flush();
    await waitFor(
      () => a!.events.length + b!.events.length === 100,
      () => `${a!.events.length} + ${b!.events.length} events`,
    );
    const events = [...a!.events, ...b!.events];
    assert.equal(
      events.map((event) => event.message).sort(),
      Array.from({ length: 100 }, (_, i) => `line ${i}`).sort(),
    );
    const first = events.find((event) => event.message === 'line 1')!;
    assert.is(first.subject, 'logs.web');
    assert.is(first.source_type, 'nats');
    assert.ok(a!.events.length > 0 && b!.events.length > 0, 'both members of the queue group got messages');
  } finally {
    await client.close();
    for (const run of [a!, b!]) run.shutdown.abort();
    await Promise.all([a!.done, b!.done]);
    // Its acknowledgements answered, a source closes its connection.
    await Promise.all(built.map((one) => one.acknowledged?.()));
  }
});

test('JetStream: a durable consumer delivers each message once it is acknowledged; a nak redelivers it', async () => {
  const client = await connect({ servers: server.url });
  const manager = await jetstreamManager(client);
  await manager.streams.add({ name: 'EVENTS', subjects: ['events.>'] });
  await manager.consumers.add('EVENTS', { durable_name: 'aggregator', ack_policy: AckPolicy.Explicit, ack_wait: 1e9 });
  const stream = jetstream(client);
  for (let i = 0; i < 10; i++) await stream.publish('events.a', JSON.stringify({ n: i }));

  const options = {
    url: server.url,
    connection_name: 'test',
    subject: 'events.>',
    jetstream: { stream: 'EVENTS', consumer: 'aggregator' },
    decoding: { codec: 'json' },
  };
  const built = await buildSource(source, options, testEnv('nats', { acknowledgements: true }));
  const run = runSource(built);
  try {
    await run.waitFor(10);
    // Nothing is acknowledged while the sinks hold the batches, and nothing is redelivered past the 1 s
    // ack_wait either: the source tells the server it is still working on them. (Showing that something does
    // not happen takes a wait: three ack_waits.)
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const held = await manager.consumers.info('EVENTS', 'aggregator');
    assert.is(held.num_ack_pending, 10);
    assert.is(held.num_redelivered, 0);
    assert.is(run.events.length, 10);
    // The first batch is given up on: its messages come again; the others are delivered.
    const [first, ...rest] = run.batches;
    const redelivered = first!.count;
    first!.finalizer!.release('errored');
    for (const batch of rest) batch.finalizer!.release();
    await run.waitFor(10 + redelivered);
    for (const batch of run.batches.slice(1 + rest.length)) batch.finalizer!.release();
    // The acknowledgements reach the server asynchronously: ask until it has them all.
    let info = await manager.consumers.info('EVENTS', 'aggregator');
    for (let asked = 0; asked < 500 && (info.num_ack_pending > 0 || info.num_pending > 0); asked++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      info = await manager.consumers.info('EVENTS', 'aggregator');
    }
    assert.is(info.num_ack_pending, 0);
    assert.is(info.num_pending, 0);
    assert.equal(
      [...new Set(run.events.map((event) => event.n))].sort((x, y) => Number(x) - Number(y)),
      Array.from({ length: 10 }, (_, i) => BigInt(i)),
    );
    assert.is(run.events.length, 10 + redelivered);
    assert.is(run.events[0]!.subject, 'events.a');
  } finally {
    run.shutdown.abort();
    await run.done;
    await built.acknowledged?.();
    await client.close();
  }
});

test('a consumer that does not exist fails the build, naming the stream and the consumer', async () => {
  const options = {
    url: server.url,
    connection_name: 'test',
    subject: 'x',
    jetstream: { stream: 'NOPE', consumer: 'none' },
  };
  await buildSource(source, options, testEnv('nats')).then(
    () => assert.unreachable('built'),
    (error: Error) => assert.match(error.message, 'cannot bind to the consumer "none" of the stream "NOPE"'),
  );
});

test.run();
