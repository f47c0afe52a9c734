// The nats sink against a real nats-server: one message per event on its rendered subject, delivered once
// the server answered; JetStream publishes stored before the batch counts as delivered; failures retried with
// Vector's backoff, then given up.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Msg } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import nats, { buildNatsSink } from '../../../../host/components/sinks/nats.js';
import { BatchNotifier, type BatchStatus, type EventBatch } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { startNatsServer, type NatsServer } from '../../support/nats-server.js';
import { steppedTimer } from '../../support/stepped-timer.js';
import { waitFor } from '../../../support/wait-for.js';

let server: NatsServer;
test.before(async () => {
  server = await startNatsServer();
});
test.after(async () => {
  await server.stop();
});

/** `events` as a batch whose finalizer records the status it is released with. */
function tracked(events: object[]): { batch: EventBatch; status: () => BatchStatus | undefined } {
  let status: BatchStatus | undefined;
  const finalizer = new BatchNotifier((given) => (status = given));
  return { batch: { ...logBatch(events), finalizer }, status: () => status };
}

test('core NATS: each event on the subject it renders; an event that does not render is dropped', async () => {
  const client = await connect({ servers: server.url });
  const received: Msg[] = [];
  client.subscribe('teams.>', { callback: (_error, message) => void received.push(message) });
  await client.flush();
  const env = componentEnv(nats);
  const sink = await buildNatsSink(
    nats.options.parse({ url: server.url, subject: 'teams.{{ team }}', encoding: { codec: 'json' } }),
    env,
  );
  try {
    const { batch, status } = tracked([
      { team: 'a', message: 'one' },
      { team: 'b', message: 'two' },
      { message: 'no team' },
      { team: 'a', message: 'three' },
    ]);
    await sink.write(batch);
    await waitFor(
      () => received.length === 3 && status() !== undefined,
      () => `${received.length} messages, status ${status()}`,
    );
    assert.is(status(), 'delivered');
    assert.equal(
      received.map((message) => [message.subject, JSON.parse(message.string()).message]),
      [
        ['teams.a', 'one'],
        ['teams.a', 'three'],
        ['teams.b', 'two'],
      ],
    );
    assert.is(env.metrics.total('component_errors_total'), 1);
  } finally {
    await sink.close();
    await client.close();
  }
});

test('JetStream: a batch is delivered once the stream stored its messages; no stream is retried, then given up', async () => {
  const client = await connect({ servers: server.url });
  const manager = await jetstreamManager(client);
  await manager.streams.add({ name: 'STORED', subjects: ['stored.>'] });
  const { timer, waits } = steppedTimer();
  const env = componentEnv(nats);
  const sink = await buildNatsSink(
    nats.options.parse({
      url: server.url,
      subject: '{{ where }}',
      encoding: { codec: 'text' },
      jetstream: true,
      request: { retry_attempts: 1, retry_jitter_mode: 'None', timeout_secs: 5 },
    }),
    env,
    timer,
  );
  try {
    const stored = tracked([
      { where: 'stored.x', message: 'kept 1' },
      { where: 'stored.y', message: 'kept 2' },
    ]);
    await sink.write(stored.batch);
    await waitFor(
      () => stored.status() !== undefined,
      () => 'the stored batch is not settled',
    );
    assert.is(stored.status(), 'delivered');
    assert.is((await manager.streams.info('STORED')).state.messages, 2);

    // No stream takes `lost.x`: the publish fails, is retried once, then given up.
    const lost = tracked([{ where: 'lost.x', message: 'nowhere' }]);
    await sink.write(lost.batch);
    await waitFor(
      () => waits.length === 1,
      () => `${waits.length} retry waits`,
    );
    assert.is(waits[0]!.ms, 1000);
    waits[0]!.release();
    await waitFor(
      () => lost.status() !== undefined,
      () => 'the lost batch is not settled',
    );
    assert.is(lost.status(), 'errored');
    assert.is(env.metrics.total('component_errors_total'), 2);
  } finally {
    for (const wait of waits) wait.release();
    await sink.close();
    await client.close();
  }
});

test('a server that cannot be reached fails the build, naming it', async () => {
  const options = nats.options.parse({ url: 'nats://127.0.0.1:1', subject: 's', encoding: { codec: 'json' } });
  await buildNatsSink(options, componentEnv(nats)).then(
    () => assert.unreachable('built'),
    (error: Error) => assert.match(error.message, 'could not connect to NATS at nats://127.0.0.1:1'),
  );
});

test.run();
