// The mqtt source and sink against a real mosquitto: a round trip sink → broker → source gives exactly the
// events sent, each on the topic its template rendered; with end-to-end acknowledgements the source answers
// a QoS 1 message (PUBACK) only once the sinks delivered its event, and takes the next one after; across a
// broker restart both reconnect, the sink sending again what the broker had not acknowledged.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectAsync } from 'mqtt';
import mqttSource from '../../../../host/components/sources/mqtt.js';
import mqttSink, { MAX_BATCHES_IN_FLIGHT } from '../../../../host/components/sinks/mqtt.js';
import type { Sink, SourceDefinition } from '../../../../host/components/component.js';
import { BatchNotifier, type BatchStatus, type EventBatch } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { buildSource, runSource, testEnv, type Collected } from '../../support/sources.js';
import { startMosquitto, type Mosquitto } from '../../support/mosquitto.js';
import { waitFor } from '../../../support/wait-for.js';

let broker: Mosquitto;
test.before(async () => {
  broker = await startMosquitto();
});
test.after(async () => {
  await broker.stop();
});

const source = mqttSource as SourceDefinition;

/** `events` as a batch whose finalizer records the status it is released with. */
function tracked(events: object[]): { batch: EventBatch; status: () => BatchStatus | undefined } {
  let status: BatchStatus | undefined;
  const finalizer = new BatchNotifier((given) => (status = given));
  return { batch: { ...logBatch(events), finalizer }, status: () => status };
}

async function buildSink(options: object): Promise<Sink> {
  return mqttSink.build(mqttSink.options.parse(options), componentEnv(mqttSink));
}

async function stopSource(run: Collected, built: { acknowledged?: () => Promise<void> }): Promise<void> {
  run.shutdown.abort();
  await run.done;
  await built.acknowledged?.();
}

test('round trip: the events the sink sends, on the topics it renders, are those the source gets', async () => {
  const built = await buildSource(
    source,
    { host: '127.0.0.1', port: broker.port, topic: ['teams/+', 'other'], decoding: { codec: 'json' } },
    testEnv('mqtt'),
  );
  const run = runSource(built);
  const env = componentEnv(mqttSink);
  const sink = await mqttSink.build(
    mqttSink.options.parse({
      host: '127.0.0.1',
      port: broker.port,
      topic: 'teams/{{ team }}',
      encoding: { codec: 'json' },
    }),
    env,
  );
  try {
    const sent = Array.from({ length: 50 }, (_, i) => ({ team: i % 2 ? 'a' : 'b', n: i }));
    const { batch, status } = tracked([...sent, { message: 'no team' }]);
    await sink.write(batch);
    await waitFor(
      () => status() !== undefined,
      () => 'the batch is not settled',
    );
    assert.is(status(), 'delivered');
    assert.is(env.metrics.total('component_errors_total'), 1);
    await run.waitFor(50);
    assert.equal(
      run.events
        .map((event): [unknown, unknown, number] => [event.topic, event.team, Number(event.n)])
        .sort((x, y) => x[2] - y[2]),
      sent.map((event) => [`teams/${event.team}`, event.team, event.n]),
    );
    assert.is(run.events[0]!.source_type, 'mqtt');
  } finally {
    await sink.close();
    await stopSource(run, built);
  }
  assert.is(run.events.length, 50, 'nothing more arrived');
});

test('QoS 1 with end-to-end acknowledgements: the next message comes once the sinks delivered the previous one', async () => {
  const built = await buildSource(
    source,
    { host: '127.0.0.1', port: broker.port, topic: 'acked' },
    testEnv('mqtt', { acknowledgements: true }),
  );
  const run = runSource(built);
  const publisher = await connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  try {
    // The broker acknowledges the publisher; the source acknowledges the broker (its PUBACK), only once the
    // batch is released, and MQTT.js hands on the next message only after that PUBACK.
    await Promise.all(['one', 'two', 'three'].map((message) => publisher.publishAsync('acked', message, { qos: 1 })));
    for (let i = 0; i < 3; i++) {
      await run.waitFor(i + 1);
      assert.is(run.events.length, i + 1, 'a message came while the previous one was held');
      assert.is(run.batches.length, i + 1);
      run.batches[i]!.finalizer!.release();
    }
    assert.equal(
      run.events.map((event) => [event.message, event.topic]),
      [
        ['one', 'acked'],
        ['two', 'acked'],
        ['three', 'acked'],
      ],
    );
  } finally {
    await publisher.endAsync();
    await stopSource(run, built);
  }
});

test('broker restart: both reconnect; the sink sends again what the broker had not acknowledged', async () => {
  let restarted: Mosquitto | undefined;
  const own = await startMosquitto();
  const sourceEnv = testEnv('mqtt');
  const built = await buildSource(source, { host: '127.0.0.1', port: own.port, topic: 'restart/#' }, sourceEnv);
  const run = runSource(built);
  const sink = await buildSink({ host: '127.0.0.1', port: own.port, topic: 'restart/x', encoding: { codec: 'text' } });
  const reconnected = () => sourceEnv.logs.filter((record) => /Connected to MQTT broker/.test(record.message)).length;
  try {
    const before = tracked([{ message: 'before' }]);
    await sink.write(before.batch);
    await run.waitFor(1);
    assert.is(before.status(), 'delivered');

    await own.stop();
    const connections = reconnected();
    // Written while the broker is down: kept by the client and sent once it reconnected.
    const during = tracked([{ message: 'during' }]);
    await sink.write(during.batch);
    restarted = await startMosquitto({ port: own.port, dir: own.dir });
    await waitFor(
      () => during.status() !== undefined,
      () => 'the batch written while the broker was down is not settled',
    );
    assert.is(during.status(), 'delivered');
    // The source subscribed again once reconnected: what is published now reaches it. ("during" may have
    // reached the broker before the source came back, with no subscriber then.)
    await waitFor(
      () => reconnected() > connections,
      () => 'the source did not reconnect',
    );
    const after = tracked([{ message: 'after' }]);
    await sink.write(after.batch);
    await waitFor(
      () => run.events.some((event) => event.message === 'after'),
      () => `events: ${run.events.map((event) => event.message).join(', ')}`,
    );
    assert.is(after.status(), 'delivered');
    assert.ok(run.events.every((event) => ['before', 'during', 'after'].includes(event.message as string)));
  } finally {
    await sink.close();
    await stopSource(run, built);
    await (restarted ?? own).stop();
  }
});

test('sink backpressure: past MAX_BATCHES_IN_FLIGHT unacknowledged batches, a write waits for the broker', async () => {
  const own = await startMosquitto();
  let restarted: Mosquitto | undefined;
  const sink = await buildSink({ host: '127.0.0.1', port: own.port, topic: 'held', encoding: { codec: 'text' } });
  try {
    await own.stop();
    const batches = Array.from({ length: MAX_BATCHES_IN_FLIGHT + 1 }, (_, i) => tracked([{ message: `m${i}` }]));
    for (const { batch } of batches.slice(0, -1)) await sink.write(batch);
    let lastWritten = false;
    const last = sink.write(batches.at(-1)!.batch).then(() => (lastWritten = true));
    // Nothing can be acknowledged while the broker is down: the write is still waiting after the others.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.not.ok(lastWritten);
    restarted = await startMosquitto({ port: own.port, dir: own.dir });
    await last;
    await waitFor(
      () => batches.every(({ status }) => status() !== undefined),
      () => 'batches not settled',
    );
    assert.equal(
      batches.map(({ status }) => status()),
      batches.map(() => 'delivered'),
    );
  } finally {
    // Back up first: closing waits for what is in flight.
    restarted ??= await startMosquitto({ port: own.port, dir: own.dir });
    await sink.close();
    await restarted.stop();
  }
});

test('sink: retain keeps the last message for later subscribers; at most once is delivered once written', async () => {
  const sink = await buildSink({
    host: '127.0.0.1',
    port: broker.port,
    topic: 'retained/{{ id }}',
    quality_of_service: 'atmostonce',
    retain: true,
    encoding: { codec: 'text' },
  });
  const subscriber = await connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  try {
    const { batch, status } = tracked([{ id: 'a', message: 'kept' }]);
    await sink.write(batch);
    await waitFor(
      () => status() !== undefined,
      () => 'the batch is not settled',
    );
    assert.is(status(), 'delivered');
    // Subscribed after the publish: only a retained message reaches it.
    const received: Array<[string, string, boolean]> = [];
    subscriber.on('message', (topic, payload, packet) => received.push([topic, payload.toString(), packet.retain]));
    await subscriber.subscribeAsync('retained/#', { qos: 1 });
    await waitFor(
      () => received.length === 1,
      () => `${received.length} messages`,
    );
    assert.equal(received, [['retained/a', 'kept', true]]);
  } finally {
    await sink.close();
    await subscriber.endAsync();
  }
});

test('max_packet_size: the sink drops a larger message, the source one it receives', async () => {
  const sourceEnv = testEnv('mqtt');
  const built = await buildSource(
    source,
    { host: '127.0.0.1', port: broker.port, topic: 'sized', max_packet_size: 100 },
    sourceEnv,
  );
  const run = runSource(built);
  const sinkEnv = componentEnv(mqttSink);
  const sink = await mqttSink.build(
    mqttSink.options.parse({
      host: '127.0.0.1',
      port: broker.port,
      topic: 'sized',
      max_packet_size: 200,
      encoding: { codec: 'text' },
    }),
    sinkEnv,
  );
  try {
    // 150 bytes: within the sink's bound, beyond the source's; 300: beyond both.
    const { batch, status } = tracked([{ message: 'x'.repeat(300) }, { message: 'y'.repeat(150) }, { message: 'z' }]);
    await sink.write(batch);
    await waitFor(
      () => status() !== undefined,
      () => 'the batch is not settled',
    );
    assert.is(status(), 'delivered');
    assert.is(sinkEnv.metrics.total('component_errors_total'), 1);
    await run.waitFor(1);
    await waitFor(
      () => sourceEnv.metrics.total('component_errors_total') === 1,
      () => 'the source did not count the large message',
    );
    assert.equal(
      run.events.map((event) => event.message),
      ['z'],
    );
  } finally {
    await sink.close();
    await stopSource(run, built);
  }
});

test('a broker that cannot be reached fails the build, naming it', async () => {
  await buildSink({ host: '127.0.0.1', port: 1, topic: 't', encoding: { codec: 'json' } }).then(
    () => assert.unreachable('built'),
    (error: Error) => assert.match(error.message, 'could not connect to MQTT broker at 127.0.0.1:1'),
  );
});

test.run();
