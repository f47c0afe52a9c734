// Broker throughput (issue 25): an svc agent (file source → the broker's sink) and an svc aggregator (the
// broker's source → file sink) started together on this machine with the broker's real server (Debian's
// package, on loopback ports of its own), timed from their spawn until the aggregator's file holds every
// line; for NATS JetStream (a durable pull consumer), Redis Streams (a consumer group), RabbitMQ (a durable
// queue) and Mosquitto (QoS 1, a persistent session). A broker whose server is not installed is skipped with
// a note. Uses the test servers of test/host/support (built to dist-test/). Run by bench/remap.mjs; alone:
//   npm run build && node bench/brokers.mjs [--lines N]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countNew } from './durability.mjs';

const support = (name) => import(`../dist-test/test/host/support/${name}.js`);
const installed = (...paths) => paths.some((binary) => existsSync(binary));

/** Each broker: whether its server is here, and how to start it and configure the agent's sink and the
 * aggregator's source (each returns what to stop). */
const BROKERS = [
  {
    name: 'nats (JetStream)',
    installed: () => installed('/usr/sbin/nats-server', '/usr/bin/nats-server'),
    async start() {
      const server = await (await support('nats-server')).startNatsServer();
      const { connect } = await import('@nats-io/transport-node');
      const { AckPolicy, jetstreamManager } = await import('@nats-io/jetstream');
      const client = await connect({ servers: server.url });
      const manager = await jetstreamManager(client);
      await manager.streams.add({ name: 'LINES', subjects: ['lines.>'] });
      await manager.consumers.add('LINES', { durable_name: 'aggregators', ack_policy: AckPolicy.Explicit });
      await client.close();
      return {
        sink: { type: 'nats', url: server.url, subject: 'lines.in', jetstream: true, encoding: { codec: 'text' } },
        source: {
          type: 'nats',
          url: server.url,
          connection_name: 'aggregator',
          subject: 'lines.>',
          jetstream: { stream: 'LINES', consumer: 'aggregators' },
        },
        stop: () => server.stop(),
      };
    },
  },
  {
    name: 'redis (streams)',
    installed: () => installed('/usr/bin/redis-server'),
    async start() {
      const server = await (await support('redis-server')).startRedisServer();
      return {
        sink: { type: 'redis', endpoint: server.url, key: 'lines', data_type: 'stream', encoding: { codec: 'text' } },
        source: {
          type: 'redis',
          url: server.url,
          key: 'lines',
          data_type: 'stream',
          stream: { group: 'aggregators', consumer: 'aggregator' },
        },
        stop: () => server.stop(),
      };
    },
  },
  {
    name: 'amqp (RabbitMQ)',
    installed: () => installed('/usr/lib/rabbitmq/bin/rabbitmq-server'),
    async start() {
      const server = await (await support('rabbitmq-server')).startRabbitMq();
      const { connect } = await import('amqplib');
      const client = await connect(server.url);
      const channel = await client.createChannel();
      await channel.assertExchange('lines', 'direct', { durable: true });
      await channel.assertQueue('lines', { durable: true });
      await channel.bindQueue('lines', 'lines', 'in');
      await client.close();
      return {
        sink: {
          type: 'amqp',
          connection_string: server.url,
          exchange: 'lines',
          routing_key: 'in',
          encoding: { codec: 'text' },
        },
        source: { type: 'amqp', connection_string: server.url, queue: 'lines', prefetch_count: 1000 },
        stop: () => server.stop(),
      };
    },
  },
  {
    name: 'mqtt (Mosquitto)',
    installed: () => installed('/usr/sbin/mosquitto', '/usr/bin/mosquitto'),
    async start() {
      // A QoS 1 subscriber's queue is unbounded here: by default Mosquitto drops past 1000 queued messages.
      const broker = await (await support('mosquitto')).startMosquitto({ settings: ['max_queued_messages 0'] });
      // The aggregator's persistent session exists before the agent publishes: nothing is published to no one.
      const { connectAsync } = await import('mqtt');
      const session = await connectAsync(`mqtt://127.0.0.1:${broker.port}`, { clientId: 'aggregator', clean: false });
      await session.subscribeAsync('lines', { qos: 1 });
      await session.endAsync();
      const where = { host: '127.0.0.1', port: broker.port };
      return {
        sink: { type: 'mqtt', ...where, topic: 'lines', encoding: { codec: 'text' } },
        source: { type: 'mqtt', ...where, topic: 'lines', client_id: 'aggregator' },
        stop: () => broker.stop(),
      };
    },
  },
];

/** Seconds from spawning the agent and the aggregator until `output` holds `lines` lines. */
async function timedRun(cli, agentConfig, aggregatorConfig, output, lines) {
  const start = process.hrtime.bigint();
  const children = [aggregatorConfig, agentConfig].map((config) =>
    spawn(process.execPath, [cli, '-q', '--config', config], { stdio: 'ignore' }),
  );
  const exits = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  const counter = { lines: 0, offset: 0 };
  try {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (countNew(output, counter) >= lines) return Number(process.hrtime.bigint() - start) / 1e9;
      if (children.some((child) => child.exitCode !== null))
        throw new Error(`an svc exited with ${counter.lines} of ${lines} lines delivered`);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(exits);
  }
}

/** One row per broker: events/s from agent to aggregator, or why it was skipped. */
export async function brokerBenchmark({ cli, lines = 100_000 }) {
  const rows = [];
  for (const broker of BROKERS) {
    const title = `| broker throughput: agent → ${broker.name} → aggregator, ${lines / 1000}k lines, spawn → last line written, ev/s`;
    if (!broker.installed()) {
      rows.push(`${title} | skipped: the server is not installed | | | |`);
      continue;
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-brokers-'));
    const started = await broker.start();
    try {
      const input = path.join(dir, 'input.log');
      writeFileSync(input, Array.from({ length: lines }, (_, i) => `line-${i}\n`).join(''));
      const output = path.join(dir, 'out.log');
      const config = (name, body) => {
        mkdirSync(path.join(dir, `${name}-data`));
        const file = path.join(dir, `${name}.json`);
        writeFileSync(file, JSON.stringify({ data_dir: path.join(dir, `${name}-data`), ...body }));
        return file;
      };
      const agent = config('agent', {
        sources: { lines: { type: 'file', include: [input], read_from: 'beginning' } },
        sinks: { broker: { inputs: ['lines'], ...started.sink } },
      });
      const aggregator = config('aggregator', {
        sources: { broker: started.source },
        sinks: { out: { type: 'file', inputs: ['broker'], path: output, encoding: { codec: 'text' } } },
      });
      const seconds = await timedRun(cli, agent, aggregator, output, lines);
      console.error(`${broker.name}: ${lines} lines in ${seconds.toFixed(2)} s`);
      rows.push(`${title} | ${(lines / seconds / 1e3).toFixed(0)} k | | | |`);
    } finally {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = process.argv.includes('--lines')
    ? Number(process.argv[process.argv.indexOf('--lines') + 1])
    : undefined;
  const cli = fileURLToPath(new URL('../dist/bin/svc.js', import.meta.url));
  console.log((await brokerBenchmark({ cli, lines })).join('\n'));
}
