// Scale-out through RabbitMQ (scale-out.ts): the agent publishes with the amqp sink to a durable exchange
// bound to one durable queue, and the two aggregators consume that queue, each with a prefetch window.
// Also says how many messages the queue held at the end. Used small by
// test/host/components/sources/amqp-kill.test.ts.

import { connect } from 'amqplib';
import { startRabbitMq } from './rabbitmq-server.js';
import { runScaleOutThrough, type ScaleOutOptions, type ScaleOutOutcome } from './scale-out.js';

export async function runAmqpScaleOut(options: ScaleOutOptions): Promise<ScaleOutOutcome & { queued: number }> {
  const server = await startRabbitMq();
  const client = await connect(server.url);
  try {
    const channel = await client.createChannel();
    await channel.assertExchange('lines', 'direct', { durable: true });
    await channel.assertQueue('lines', { durable: true });
    await channel.bindQueue('lines', 'lines', 'in');
    const outcome = await runScaleOutThrough(
      {
        sink: `type: amqp
connection_string: '${server.url}'
exchange: lines
routing_key: in
encoding: { codec: text }`,
        source: (name) => `type: amqp
connection_string: '${server.url}'
queue: lines
consumer: aggregator-${name}
prefetch_count: 1000`,
        // A killed consumer's connection closes with its process: the broker requeues its messages at once.
        settleMs: 500,
      },
      options,
    );
    const queued = (await channel.checkQueue('lines')).messageCount;
    return { ...outcome, queued };
  } finally {
    await client.close();
    await server.stop();
  }
}
