// Scale-out through Kafka (scale-out.ts) against the in-test broker (kafka-broker.ts): the agent produces with
// the kafka sink, the two aggregators are members of one consumer group and share the topic's partitions. A
// killed member's partitions go to the other once its session times out; its uncommitted records are read
// again from the group's committed offsets.

import { startKafkaBroker } from './kafka-broker.js';
import { runScaleOutThrough, type ScaleOutOptions, type ScaleOutOutcome } from './scale-out.js';

export async function runKafkaScaleOut(
  options: ScaleOutOptions & { sessionTimeoutMs?: number },
): Promise<ScaleOutOutcome & { committed: bigint }> {
  const sessionTimeoutMs = options.sessionTimeoutMs ?? 6000;
  const broker = await startKafkaBroker(4);
  try {
    const outcome = await runScaleOutThrough(
      {
        sink: `type: kafka
bootstrap_servers: ${broker.address}
topic: lines
key_field: message
encoding: { codec: text }`,
        source: () => `type: kafka
bootstrap_servers: ${broker.address}
topics: [lines]
group_id: aggregators
auto_offset_reset: earliest
session_timeout_ms: ${sessionTimeoutMs}
commit_interval_ms: 200`,
        settleMs: sessionTimeoutMs * 2,
      },
      options,
    );
    const committed = [...broker.committed('aggregators').values()].reduce((sum, offset) => sum + offset, 0n);
    return { ...outcome, committed };
  } finally {
    await broker.stop();
  }
}
