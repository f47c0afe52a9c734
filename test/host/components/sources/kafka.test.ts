// The kafka source and sink against the in-test broker (test/host/support/kafka-broker.ts, which checks each
// produced record batch's format and CRC-32C): a round trip sink → broker → source gives exactly the events
// sent, with their keys, headers, topics, partitions and offsets, compressed or not; Vector's log namespace
// puts those fields in the metadata; with end-to-end acknowledgements the group's offset is committed in order,
// only past records the sinks delivered.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import kafkaSource from '../../../../host/components/sources/kafka.js';
import kafkaSink from '../../../../host/components/sinks/kafka.js';
import type { SourceDefinition } from '../../../../host/components/component.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import { componentEnv, logBatch } from '../../support/env.js';
import {
  buildSource,
  runSource,
  sourceMetadata,
  testEnv,
  vectorNamespaceEnv,
  type Collected,
} from '../../support/sources.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { waitFor } from '../../../support/wait-for.js';

let broker: KafkaBroker;
test.before(async () => {
  broker = await startKafkaBroker(2);
});
test.after(async () => {
  await broker.stop();
});

const source = kafkaSource as SourceDefinition;

async function produce(options: object, events: object[]): Promise<BatchStatus | undefined> {
  const env = componentEnv(kafkaSink);
  const sink = await kafkaSink.build(
    kafkaSink.options.parse({ bootstrap_servers: broker.address, encoding: { codec: 'json' }, ...options }),
    env,
  );
  let status: BatchStatus | undefined;
  try {
    await sink.write({ ...logBatch(events), finalizer: new BatchNotifier((given) => (status = given)) });
    await waitFor(
      () => status !== undefined,
      () => 'the batch is not settled',
    );
  } finally {
    await sink.close();
  }
  return status;
}

async function stopSource(run: Collected, built: { acknowledged?: () => Promise<void> }): Promise<void> {
  run.shutdown.abort();
  await run.done;
  await built.acknowledged?.();
}

for (const compression of ['none', 'gzip', 'snappy', 'zstd']) {
  test(`round trip (${compression}): keys, headers, topics, partitions and offsets arrive with the events`, async () => {
    const topic = `round-${compression}`;
    const built = await buildSource(
      source,
      {
        bootstrap_servers: broker.address,
        topics: [`^${topic}-.*`],
        group_id: `group-${compression}`,
        auto_offset_reset: 'earliest',
        decoding: { codec: 'json' },
      },
      testEnv('kafka'),
    );
    const sent = Array.from({ length: 20 }, (_, i) => ({
      n: i,
      team: i % 2 ? 'a' : 'b',
      user: `user-${i % 3}`,
      hdrs: { trace: `t${i}` },
    }));
    // The records go first: a pattern subscription matches the topics there when it is made (as Vector's,
    // until a metadata refresh), and a consumer that subscribed before the producer made them got nothing.
    const status = await produce(
      { topic: `${topic}-{{ team }}`, key_field: 'user', headers_key: 'hdrs', compression },
      sent,
    );
    assert.is(status, 'delivered');
    const run = runSource(built);
    try {
      await run.waitFor(20);
      const events = [...run.events].sort((x, y) => Number(x.n) - Number(y.n));
      assert.equal(
        events.map((event) => [event.n, event.topic, event.message_key, event.headers]),
        sent.map((event) => [BigInt(event.n), `${topic}-${event.team}`, event.user, { trace: event.hdrs.trace }]),
      );
      assert.ok(events.every((event) => event.source_type === 'kafka' && event.timestamp instanceof Timestamp));
      // Per partition of a topic, offsets 0, 1, 2 … in the order the events were sent.
      const offsets = new Map<string, bigint[]>();
      for (const event of events) {
        const key = `${String(event.topic)}/${String(event.partition)}`;
        offsets.set(key, [...(offsets.get(key) ?? []), event.offset as bigint]);
      }
      for (const list of offsets.values())
        assert.equal(
          list,
          list.map((_, i) => BigInt(i)),
        );
      // The same key always lands on the same partition.
      const partitionOf = new Map<string, unknown>();
      for (const event of events) {
        const key = `${String(event.topic)}|${String(event.message_key)}`;
        assert.is(partitionOf.get(key) ?? event.partition, event.partition);
        partitionOf.set(key, event.partition);
      }
    } finally {
      await stopSource(run, built);
    }
  });
}

test("Vector's log namespace: the record's fields are metadata", async () => {
  const built = await buildSource(
    source,
    { bootstrap_servers: broker.address, topics: ['ns'], group_id: 'ns', auto_offset_reset: 'beginning' },
    vectorNamespaceEnv('kafka'),
  );
  const run = runSource(built);
  try {
    // The event's timestamp becomes the record's (to the millisecond), which the source gives its event.
    const timestamp = new Timestamp(1_700_000_000_123_000_000n);
    const status = await produce({ topic: 'ns', key_field: 'k', encoding: { codec: 'text' } }, [
      { message: 'hi', k: 'key', timestamp },
    ]);
    assert.is(status, 'delivered');
    await run.waitFor(1);
    assert.is(run.events[0] as unknown, 'hi');
    const own = sourceMetadata(run.metadata[0]!, 'kafka');
    assert.equal(Object.keys(own).sort(), ['headers', 'message_key', 'offset', 'partition', 'timestamp', 'topic']);
    assert.equal([own.topic, own.offset, own.message_key, own.timestamp], ['ns', 0n, 'key', timestamp]);
  } finally {
    await stopSource(run, built);
  }
});

test('acknowledgements: offsets are committed in order, only past records the sinks delivered', async () => {
  const built = await buildSource(
    source,
    {
      bootstrap_servers: broker.address,
      topics: ['acked'],
      group_id: 'acked',
      auto_offset_reset: 'earliest',
      commit_interval_ms: 20,
    },
    testEnv('kafka', { acknowledgements: true }),
  );
  const run = runSource(built);
  const committed = (partition: unknown) => broker.committed('acked').get(`acked/${String(partition)}`);
  const send = async (message: string, key: string) => {
    const arrived = run.waitFor(run.events.length + 1);
    const status = await produce({ topic: 'acked', key_field: 'k', encoding: { codec: 'text' } }, [
      { message, k: key },
    ]);
    assert.is(status, 'delivered');
    await arrived;
    return run.batches.at(-1)!;
  };
  try {
    // Each record read alone (the next produced once the previous arrived); the key decides the partition.
    const first = await send('one', 'x');
    const partition = run.events[0]!.partition;
    const second = await send('two', 'x');
    // The second delivered first: its partition is not committed while the first is in flight.
    second.finalizer!.release();
    let onPartition = 2n;
    // A record of the other partition, delivered: its commit shows the source committed since.
    for (const key of ['y', 'z', 'w', 'v', 'u', 't']) {
      const other = await send(`three ${key}`, key);
      other.finalizer!.release();
      if (run.events.at(-1)!.partition === partition) {
        onPartition++;
        continue;
      }
      await waitFor(
        () => committed(run.events.at(-1)!.partition) !== undefined,
        () => 'the other partition is not committed',
      );
      break;
    }
    assert.is(committed(partition), undefined, 'committed past a record still in flight');
    first.finalizer!.release();
    await waitFor(
      () => committed(partition) === onPartition,
      () => `partition ${String(partition)} committed at ${committed(partition)}, not ${onPartition}`,
    );
  } finally {
    await stopSource(run, built);
  }
});

test.run();
