// Scale-out through NATS JetStream (scale-out.ts): the agent publishes with the nats sink (`jetstream: true`)
// and the two aggregators share one durable pull consumer. Used small by
// test/host/components/sources/nats-kill.test.ts, large by scripts/scale-out.mjs.

import { AckPolicy, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startNatsServer } from './nats-server.js';
import { runScaleOutThrough, type ScaleOutOptions, type ScaleOutOutcome } from './scale-out.js';

/** `ackWaitSecs`: how long the server waits for an acknowledgement before redelivering (`ack_wait`). */
export async function runScaleOut(options: ScaleOutOptions & { ackWaitSecs?: number }): Promise<ScaleOutOutcome> {
  const ackWaitSecs = options.ackWaitSecs ?? 5;
  const server = await startNatsServer();
  const client = await connect({ servers: server.url });
  try {
    const manager = await jetstreamManager(client);
    await manager.streams.add({ name: 'LINES', subjects: ['lines.>'] });
    await manager.consumers.add('LINES', {
      durable_name: 'aggregators',
      ack_policy: AckPolicy.Explicit,
      ack_wait: ackWaitSecs * 1e9,
    });
    return await runScaleOutThrough(
      {
        sink: `type: nats
url: ${server.url}
subject: lines.in
jetstream: true
encoding: { codec: text }`,
        source: (name) => `type: nats
url: ${server.url}
connection_name: aggregator-${name}
subject: lines.>
jetstream: { stream: LINES, consumer: aggregators }`,
        settleMs: ackWaitSecs * 1000,
      },
      options,
    );
  } finally {
    await client.close();
    await server.stop();
  }
}
