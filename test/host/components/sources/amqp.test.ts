// The amqp source and sink against a real RabbitMQ: svc → amqp sink → RabbitMQ → amqp source → file gives
// exactly the lines sent; the sink routes each event by its rendered exchange and routing key with the
// properties asked, and errors a batch the broker refuses; the source stamps Vector's fields in both log
// namespaces and, with end-to-end acknowledgements, acknowledges a message once its event is delivered,
// requeues it when the delivery errored and drops it when a sink rejected it. Both connect again when their
// connection is cut (through a relay the test cuts).

import { readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { type AddressInfo, connect as tcpConnect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Channel, type ChannelModel, connect, type ConsumeMessage } from 'amqplib';
import amqpSource, { Answers } from '../../../../host/components/sources/amqp.js';
import amqpSink from '../../../../host/components/sinks/amqp.js';
import type { Sink, Source, SourceDefinition } from '../../../../host/components/component.js';
import { BatchNotifier, type BatchStatus, type EventBatch } from '../../../../host/topology/batch.js';
import { Timestamp } from '../../../../runtime/index.js';
import { componentEnv, logBatch, type TestEnv } from '../../support/env.js';
import {
  buildSource,
  runSource,
  sourceMetadata,
  testEnv,
  vectorNamespaceEnv,
  type Collected,
} from '../../support/sources.js';
import { type RabbitMq, startRabbitMq } from '../../support/rabbitmq-server.js';
import { startSvc, tempDir } from '../../support/svc.js';
import { waitFor } from '../../../support/wait-for.js';

let broker: RabbitMq;
let client: ChannelModel;
let admin: Channel;
test.before(async () => {
  broker = await startRabbitMq();
  client = await connect(broker.url);
  admin = await client.createChannel();
});
test.after(async () => {
  await client.close();
  await broker.stop();
});

const source = amqpSource as SourceDefinition;

/** A topic exchange and queues bound to it by routing pattern, each queue empty. */
async function declare(exchange: string, bindings: Record<string, string>): Promise<void> {
  await admin.assertExchange(exchange, 'topic', { durable: false });
  for (const [queue, pattern] of Object.entries(bindings)) {
    await admin.assertQueue(queue, { durable: false });
    await admin.purgeQueue(queue);
    await admin.bindQueue(queue, exchange, pattern);
  }
}

/** `events` as a batch whose finalizer records the status it is released with. */
function tracked(events: object[]): { batch: EventBatch; status: () => BatchStatus | undefined } {
  let status: BatchStatus | undefined;
  const finalizer = new BatchNotifier((given) => (status = given));
  return { batch: { ...logBatch(events), finalizer }, status: () => status };
}

async function buildSink(options: object, env: TestEnv = componentEnv(amqpSink)): Promise<Sink> {
  return amqpSink.build(amqpSink.options.parse({ connection_string: broker.url, ...options }), env);
}

async function settled(status: () => BatchStatus | undefined): Promise<BatchStatus> {
  await waitFor(
    () => status() !== undefined,
    () => 'the batch is not settled',
  );
  return status()!;
}

async function stopSource(run: Collected, built: Source): Promise<void> {
  run.shutdown.abort();
  await run.done;
  await built.acknowledged?.();
}

async function messageCount(queue: string): Promise<number> {
  return (await admin.checkQueue(queue)).messageCount;
}

test('svc → amqp sink → RabbitMQ → amqp source → file: exactly the lines sent', async () => {
  await declare('svc-lines', { 'svc-lines': '#' });
  const dir = tempDir();
  const input = join(dir, 'in.log');
  const output = join(dir, 'out.log');
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`);
  writeFileSync(input, `${lines.join('\n')}\n`);
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `data_dir: ${dir}
acknowledgements: true
sources:
  lines: { type: file, include: [${input}], read_from: beginning }
  queue: { type: amqp, connection_string: '${broker.url}', queue: svc-lines }
sinks:
  broker:
    type: amqp
    inputs: [lines]
    connection_string: '${broker.url}'
    exchange: svc-lines
    routing_key: in
    encoding: { codec: text }
  out: { type: file, inputs: [queue], path: ${output}, encoding: { codec: text } }
`,
  );
  const svc = startSvc(['--config', config]);
  const written = () => {
    try {
      return readFileSync(output, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  try {
    await waitFor(
      () => written().length >= lines.length || svc.child.exitCode !== null,
      () => `${written().length} lines written; ${svc.stderr()}`,
      60_000,
    );
  } finally {
    svc.child.kill('SIGTERM');
    await svc.exited;
  }
  assert.equal(written().sort(), [...lines].sort());
  assert.is(await messageCount('svc-lines'), 0, 'every message acknowledged');
});

test('sink: each event on its rendered exchange and routing key; the source stamps Vector’s fields', async () => {
  await declare('svc-teams', { 'svc-team-a': 'team.a', 'svc-team-b': 'team.b' });
  const env = componentEnv(amqpSink);
  const sink = await buildSink(
    { exchange: 'svc-{{ kind }}', routing_key: 'team.{{ team }}', encoding: { codec: 'json' } },
    env,
  );
  const sent = Array.from({ length: 20 }, (_, i) => ({ kind: 'teams', team: i % 2 ? 'a' : 'b', n: i }));
  const { batch, status } = tracked([...sent, { kind: 'teams', message: 'no team' }, { team: 'a' }]);
  try {
    await sink.write(batch);
    assert.is(await settled(status), 'delivered');
  } finally {
    await sink.close();
  }
  assert.is(env.metrics.total('component_errors_total'), 2, 'the events whose templates did not render');
  assert.is(await messageCount('svc-team-a'), 10);

  const built = await buildSource(
    source,
    { connection_string: broker.url, queue: 'svc-team-a', decoding: { codec: 'json' } },
    testEnv('amqp'),
  );
  const run = runSource(built);
  try {
    await run.waitFor(10);
    assert.equal(
      run.events.map((event) => Number(event.n)),
      sent.filter((event) => event.team === 'a').map((event) => event.n),
    );
    const first = run.events[0]!;
    assert.is(first.routing, 'team.a');
    assert.is(first.exchange, 'svc-teams');
    assert.is(Number(first.offset), 1);
    assert.is(first.source_type, 'amqp');
    assert.ok(first.timestamp instanceof Timestamp);
  } finally {
    await stopSource(run, built);
  }
  assert.is(await messageCount('svc-team-a'), 0);
});

test('sink: content type, encoding, expiration and a templated priority on each message', async () => {
  await admin.assertQueue('svc-properties', { durable: false, maxPriority: 10 });
  const env = componentEnv(amqpSink);
  const sink = await buildSink(
    {
      exchange: '',
      routing_key: 'svc-properties',
      properties: {
        content_type: 'text/plain',
        content_encoding: 'identity',
        expiration_ms: 60_000,
        priority: '{{ level }}',
      },
      encoding: { codec: 'text' },
    },
    env,
  );
  const { batch, status } = tracked([
    { message: 'low', level: '1' },
    { message: 'high', level: 300 },
    { message: 'none' },
  ]);
  try {
    await sink.write(batch);
    assert.is(await settled(status), 'delivered');
  } finally {
    await sink.close();
  }
  assert.is(env.metrics.total('component_errors_total'), 1, 'the priority that did not render: 0, not dropped');
  const messages = [];
  for (let message = await admin.get('svc-properties'); message; message = await admin.get('svc-properties'))
    messages.push(message);
  // The queue hands the highest priority first.
  assert.equal(
    messages.map((message) => [message.content.toString(), message.properties.priority]),
    [
      ['high', 255],
      ['low', 1],
      ['none', 0],
    ],
  );
  for (const message of messages) {
    assert.is(message.properties.contentType, 'text/plain');
    assert.is(message.properties.contentEncoding, 'identity');
    assert.is(message.properties.expiration, '60000');
  }
  admin.ackAll();
});

test('sink: a batch for an exchange that does not exist is errored at once, not retried', async () => {
  const env = componentEnv(amqpSink);
  const sink = await buildSink({ exchange: 'svc-missing', encoding: { codec: 'text' } }, env);
  const { batch, status } = tracked([{ message: 'lost' }]);
  try {
    await sink.write(batch);
    assert.is(await settled(status), 'errored');
    assert.ok(
      env.logs.some((record) => /NOT_FOUND.*svc-missing.*Giving up/.test(record.message)),
      env.logs.map((record) => record.message).join('\n'),
    );
    // The next batch goes on a new channel.
    await declare('svc-missing', { 'svc-found': '#' });
    const next = tracked([{ message: 'found' }]);
    await sink.write(next.batch);
    assert.is(await settled(next.status), 'delivered');
  } finally {
    await sink.close();
  }
  assert.is(await messageCount('svc-found'), 1);
});

test('source, Vector’s namespace: routing, exchange, offset and the message’s timestamp as metadata', async () => {
  await declare('svc-meta', { 'svc-meta': '#' });
  admin.publish('svc-meta', 'key.one', Buffer.from('hello'), { timestamp: 1_700_000_000_000 });
  admin.publish('svc-meta', 'key.two', Buffer.from('world'));
  const built = await buildSource(
    source,
    { connection_string: broker.url, queue: 'svc-meta' },
    vectorNamespaceEnv('amqp'),
  );
  const run = runSource(built);
  try {
    await run.waitFor(2);
  } finally {
    await stopSource(run, built);
  }
  assert.equal(run.events, ['hello', 'world'] as unknown[]);
  const [one, two] = run.metadata.map((metadata) => sourceMetadata(metadata, 'amqp'));
  assert.equal(
    { ...one, offset: Number(one!.offset), timestamp: (one!.timestamp as Timestamp).toDate().getTime() },
    { routing: 'key.one', exchange: 'svc-meta', offset: 1, timestamp: 1_700_000_000_000 },
  );
  assert.equal({ ...two, offset: Number(two!.offset) }, { routing: 'key.two', exchange: 'svc-meta', offset: 2 });
});

test('source with end-to-end acknowledgements: acked once delivered, requeued when errored, dropped when rejected', async () => {
  await declare('svc-acks', { 'svc-acks': '#' });
  for (const message of ['delivered', 'errored', 'rejected']) admin.publish('svc-acks', 'x', Buffer.from(message));
  const built = await buildSource(
    source,
    { connection_string: broker.url, queue: 'svc-acks', prefetch_count: 1 },
    testEnv('amqp', { acknowledgements: true }),
  );
  const run = runSource(built);
  const answers: Record<string, BatchStatus[]> = {
    delivered: ['delivered'],
    errored: ['errored', 'delivered'],
    rejected: ['rejected'],
  };
  try {
    // prefetch_count 1: the next message comes once the previous one is answered; a requeued one comes again
    // first (RabbitMQ puts it back where it was).
    for (let i = 0; i < 4; i++) {
      await run.waitFor(i + 1);
      assert.is(run.events.length, i + 1, 'a message came while the previous one was held');
      run.batches[i]!.finalizer!.release(answers[run.events[i]!.message as string]!.shift());
    }
    assert.equal(
      run.events.map((event) => event.message),
      ['delivered', 'errored', 'errored', 'rejected'],
    );
  } finally {
    await stopSource(run, built);
  }
  assert.is(await messageCount('svc-acks'), 0);
});

/** A TCP relay to the broker whose connections `cut` drops, as a lost network would. */
async function relay(): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const upstream = tcpConnect(broker.port, '127.0.0.1');
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('error', () => {});
      end.on('close', () => {
        sockets.delete(end);
        socket.destroy();
        upstream.destroy();
      });
    }
    socket.pipe(upstream).pipe(socket);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `amqp://guest:guest@127.0.0.1:${(server.address() as AddressInfo).port}/%2f`,
    cut,
    async close() {
      cut();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('answers: the first part in one frame (multiple); a part settled before those ahead of it, delivery by delivery', () => {
  const channel = {} as Channel;
  const session = { open: true, channel };
  const frames: Array<[number, BatchStatus, boolean]> = [];
  const answers = new Answers(session, (on, delivery, status, multiple) => {
    assert.is(on, channel);
    frames.push([delivery.fields.deliveryTag, status, multiple]);
  });
  const deliveries = (...tags: number[]) => tags.map((deliveryTag) => ({ fields: { deliveryTag } }) as ConsumeMessage);
  const first = answers.add(deliveries(3, 4, 5));
  const second = answers.add(deliveries(6, 7));
  const third = answers.add(deliveries(8));
  const fourth = answers.add(deliveries(9, 10));
  second('delivered');
  assert.equal(frames, [
    [6, 'delivered', false],
    [7, 'delivered', false],
  ]);
  first('errored');
  assert.equal(frames.slice(2), [[5, 'errored', true]]);
  third('rejected');
  assert.equal(frames.slice(3), [[8, 'rejected', true]]);
  // The channel closed: the broker requeued what it had not been answered.
  session.open = false;
  fourth('delivered');
  assert.is(frames.length, 4);
});

test('a cut connection: the source consumes again, the sink sends the batch again once connected', async () => {
  await declare('svc-cut', { 'svc-cut': '#' });
  const link = await relay();
  const sourceEnv = testEnv('amqp');
  const built = await buildSource(source, { connection_string: link.url, queue: 'svc-cut' }, sourceEnv);
  const run = runSource(built);
  const sink = await buildSink({ connection_string: link.url, exchange: 'svc-cut', encoding: { codec: 'text' } });
  try {
    const before = tracked([{ message: 'before' }]);
    await sink.write(before.batch);
    assert.is(await settled(before.status), 'delivered');
    await run.waitFor(1);

    link.cut();
    const during = tracked([{ message: 'during' }]);
    await sink.write(during.batch);
    assert.is(await settled(during.status), 'delivered');
    const messages = () => run.events.map((event) => event.message);
    await waitFor(
      () => messages().includes('during'),
      () => `the source got ${JSON.stringify(messages())}`,
    );
    // "before" comes again when its acknowledgement was still on the way when the connection was cut.
    assert.equal([...new Set(messages())], ['before', 'during']);
    assert.ok(sourceEnv.logs.some((record) => /Consuming "svc-cut" again/.test(record.message)));
    assert.is(sourceEnv.metrics.total('component_errors_total'), 1, 'the lost connection');
  } finally {
    await sink.close();
    await stopSource(run, built);
    await link.close();
  }
});

test('source: a queue deleted while consumed is consumed again once it is back', async () => {
  await declare('svc-deleted', { 'svc-deleted': '#' });
  const env = testEnv('amqp');
  const built = await buildSource(source, { connection_string: broker.url, queue: 'svc-deleted' }, env);
  const run = runSource(built);
  try {
    await admin.deleteQueue('svc-deleted');
    await waitFor(
      () => env.logs.some((record) => /Lost the AMQP consumer of "svc-deleted"/.test(record.message)),
      () => 'the cancelled consumer went unnoticed',
    );
    await declare('svc-deleted', { 'svc-deleted': '#' });
    await waitFor(
      () => env.logs.some((record) => /Consuming "svc-deleted" again/.test(record.message)),
      () => 'the source did not consume again',
    );
    admin.publish('svc-deleted', 'x', Buffer.from('back'));
    await run.waitFor(1);
    assert.equal(
      run.events.map((event) => event.message),
      ['back'],
    );
  } finally {
    await stopSource(run, built);
  }
});

test('source: a queue that does not exist fails the build, naming it', async () => {
  try {
    await buildSource(source, { connection_string: broker.url, queue: 'svc-nowhere' }, testEnv('amqp'));
    assert.unreachable('built');
  } catch (error) {
    assert.match((error as Error).message, /cannot consume the queue "svc-nowhere": .*NOT_FOUND/);
  }
});

test('options: a connection string that is not amqp, a fixed priority that is not a number, are refused', () => {
  const parsed = source.options.safeParse({ connection_string: 'http://localhost:5672' });
  assert.not.ok(parsed.success);
  assert.match(JSON.stringify(parsed.error!.issues), /the scheme must be amqp or amqps, not \\"http\\"/);
  const priority = amqpSink.options.safeParse({
    connection_string: 'amqp://localhost',
    exchange: 'x',
    properties: { priority: 'high' },
    encoding: { codec: 'json' },
  });
  assert.not.ok(priority.success);
  assert.match(JSON.stringify(priority.error!.issues), /expected a whole number or a template/);
});

test.run();
