// What the `kafka` source and sink share (Vector's src/kafka.rs): `bootstrap_servers`, `socket_timeout_ms`,
// `sasl` (PLAIN and SCRAM) and `tls`, turned into a client of KafkaJS. Vector passes `librdkafka_options` to
// librdkafka; svc's client is not librdkafka, so it takes `client.id` from them and says which others it
// leaves unapplied.

import { z } from 'zod';
import type { Kafka, KafkaConfig, logCreator, SASLOptions } from 'kafkajs';
import type { Logger } from '../../log.js';
import type { ComponentEnv } from '../component.js';
import { compress } from './compression.js';
import { decompressBody } from './decompression.js';
import { clientTlsOptions, tlsEnableableSchema, tlsFiles } from './tls.js';

const saslSchema = z.strictObject({
  enabled: z.boolean().optional(),
  mechanism: z.enum(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512']).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});

/** The options of both components that say where and how to connect. */
export const kafkaConnectionFields = {
  bootstrap_servers: z.string().min(1),
  socket_timeout_ms: z.number().int().positive().default(60_000),
  sasl: saslSchema.optional(),
  tls: tlsEnableableSchema.optional(),
  librdkafka_options: z.record(z.string(), z.string()).default({}),
};

interface KafkaConnectionConfig {
  bootstrap_servers: string;
  socket_timeout_ms: number;
  sasl?: z.output<typeof saslSchema>;
  tls?: z.output<typeof tlsEnableableSchema>;
  librdkafka_options: Record<string, string>;
}

/** Files a client reads when built: a reload rebuilds the component when one changed. */
export function kafkaFiles(config: Pick<KafkaConnectionConfig, 'tls'>): string[] {
  return tlsFiles(config.tls);
}

/** `host:port` of each server of the comma-separated list. */
function bootstrapServers(list: string): string[] {
  return list
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

function saslOptions(sasl: KafkaConnectionConfig['sasl']): SASLOptions | undefined {
  if (!sasl?.enabled) return undefined;
  const username = sasl.username ?? '';
  const password = sasl.password ?? '';
  switch (sasl.mechanism ?? 'PLAIN') {
    case 'PLAIN':
      return { mechanism: 'plain', username, password };
    case 'SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}

/** KafkaJS's log lines into svc's log (its errors as warnings: the client retries by itself). */
function clientLog(log: Logger): logCreator {
  return () =>
    ({ level, log: entry }) => {
      const message = `Kafka client: ${entry.message}${entry.error ? `: ${String(entry.error)}` : ''}`;
      // KafkaJS levels: 1 error, 2 warn, 4 info, 5 debug.
      if (level <= 2) log.warn(message);
      else log.debug(message);
    };
}

/** A client for `config`; `clientId` when `librdkafka_options` names none. */
export async function kafkaClient(
  config: KafkaConnectionConfig,
  clientId: string,
  env: Pick<ComponentEnv, 'log' | 'maxDecompressedSize'>,
): Promise<Kafka> {
  const { Kafka, logLevel } = await import('kafkajs');
  await registerCodecs(env.maxDecompressedSize);
  const log = env.log;
  const unapplied = Object.keys(config.librdkafka_options).filter((option) => option !== 'client.id');
  if (unapplied.length > 0)
    log.warn(`librdkafka_options: ${unapplied.join(', ')} not applied (svc's Kafka client is not librdkafka).`);
  const tls = config.tls?.enabled ? await clientTlsOptions(config.tls, log) : undefined;
  const sasl = saslOptions(config.sasl);
  const options: KafkaConfig = {
    clientId: config.librdkafka_options['client.id'] ?? clientId,
    brokers: bootstrapServers(config.bootstrap_servers),
    requestTimeout: config.socket_timeout_ms,
    // librdkafka's `socket.connection.setup.timeout.ms`: kafkajs gives up on a connection after 1 s, which
    // a busy machine (or broker) exceeds; the consumer then failed after its retries.
    connectionTimeout: CONNECTION_SETUP_TIMEOUT_MS,
    logLevel: logLevel.WARN,
    logCreator: clientLog(log),
    ...(tls && { ssl: tls }),
    ...(sasl && { sasl }),
  };
  return new Kafka(options);
}

/** librdkafka's default `socket.connection.setup.timeout.ms`, which Vector's client has. */
const CONNECTION_SETUP_TIMEOUT_MS = 30_000;

type CompressionName = 'none' | 'gzip' | 'snappy' | 'zstd';

/** Snappy in Kafka: a raw block, or xerial's framing (Java producers): a magic header, then length-prefixed
 * blocks. */
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);

async function snappyUncompress(bytes: Buffer): Promise<Buffer> {
  const { uncompress } = await import('snappyjs');
  if (bytes.length < 16 || !bytes.subarray(0, 8).equals(XERIAL_MAGIC)) return Buffer.from(uncompress(bytes));
  const blocks: Buffer[] = [];
  for (let at = 16; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    blocks.push(Buffer.from(uncompress(bytes.subarray(at + 4, at + 4 + length))));
    at += 4 + length;
  }
  return Buffer.concat(blocks);
}

let codecsRegistered = false;

/** Gives KafkaJS (gzip only of its own) snappy and zstd, for both directions. */
async function registerCodecs(maxDecompressedSize: number): Promise<void> {
  if (codecsRegistered) return;
  codecsRegistered = true;
  // Not among the names Node finds in KafkaJS's CommonJS exports: taken from the module object.
  const { CompressionCodecs, CompressionTypes } = (await import('kafkajs')).default;
  const codec = (name: 'snappy' | 'zstd', uncompress: (bytes: Buffer) => Promise<Uint8Array>) => () => ({
    compress: async (encoder: { buffer: Buffer }) => Buffer.from(await compress(name, encoder.buffer)),
    decompress: async (bytes: Buffer) => Buffer.from(await uncompress(bytes)),
  });
  CompressionCodecs[CompressionTypes.Snappy] = codec('snappy', snappyUncompress);
  CompressionCodecs[CompressionTypes.ZSTD] = codec('zstd', (bytes) =>
    decompressBody(bytes, 'zstd', maxDecompressedSize),
  );
}

/** KafkaJS's number for a `compression` option. */
export function compressionType(name: CompressionName): number {
  // KafkaJS's CompressionTypes.
  return { none: 0, gzip: 1, snappy: 2, zstd: 4 }[name];
}
