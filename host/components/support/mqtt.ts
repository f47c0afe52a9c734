// What the `mqtt` source and sink share (Vector's src/common/mqtt.rs): `host`, `port`, `user`, `password`,
// `client_id`, `keep_alive`, `max_packet_size` and `tls`, turned into a connection of MQTT.js (MQTT 3.1.1,
// as Vector's client speaks). The client reconnects by itself (every second) and, on a new session,
// subscribes again; a first connection that fails fails the component's build, naming the broker.

import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Logger } from '../../log.js';
import { clientTlsOptions, tlsEnableableSchema, tlsFiles } from './tls.js';

/** The options of both components that say where and how to connect. */
export const mqttConnectionFields = {
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(1883),
  user: z.string().optional(),
  password: z.string().optional(),
  client_id: z.string().min(1).optional(),
  keep_alive: z.number().int().nonnegative().default(60),
  clean_session: z.boolean().default(false),
  max_packet_size: z.number().int().positive().default(10240),
  tls: tlsEnableableSchema.optional(),
};

export interface MqttConnectionConfig {
  host: string;
  port: number;
  user?: string | undefined;
  password?: string | undefined;
  client_id?: string | undefined;
  keep_alive: number;
  clean_session: boolean;
  max_packet_size: number;
  tls?: z.output<typeof tlsEnableableSchema> | undefined;
}

/** Files a connection reads when built: a reload rebuilds the component when one changed. */
export function mqttFiles(config: Pick<MqttConnectionConfig, 'tls'>): string[] {
  return tlsFiles(config.tls);
}

/** Connects as `config` says (`prefix` names a client when `client_id` is unset, as Vector's `vectorSource…`);
 * `prepare` sees the client before it connects (a source sets its `handleMessage` there, before a persistent
 * session's messages come). Rejects with a message naming the broker. */
export async function mqttConnect(
  config: MqttConnectionConfig,
  prefix: string,
  log: Logger,
  prepare: (client: MqttClient) => void = () => {},
): Promise<MqttClient> {
  const { connect } = await import('mqtt');
  const tls = config.tls?.enabled ? await clientTlsOptions(config.tls, log) : undefined;
  const where = `${config.host}:${config.port}`;
  const client = connect(`${tls ? 'mqtts' : 'mqtt'}://${config.host}:${config.port}`, {
    protocolVersion: 4,
    clientId: config.client_id ?? `${prefix}${randomBytes(6).toString('hex')}`,
    keepalive: config.keep_alive,
    clean: config.clean_session,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    ...(config.user !== undefined && { username: config.user }),
    ...(config.password !== undefined && { password: config.password }),
    // Node's TLS options, as support/tls.ts makes them, handed on to `tls.connect`.
    ...(tls as Partial<IClientOptions> | undefined),
  });
  prepare(client);
  try {
    // The first connection only: one that fails is not retried.
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        client.off('connect', connected);
        client.off('error', failed);
        client.off('close', closed);
        if (error) reject(error);
        else resolve();
      };
      const connected = () => settle();
      const failed = (error: Error) => settle(error);
      const closed = () => settle(new Error('connection closed'));
      client.on('connect', connected);
      client.on('error', failed);
      client.on('close', closed);
    });
  } catch (error) {
    await client.endAsync(true);
    throw new Error(`could not connect to MQTT broker at ${where}: ${(error as Error).message}`);
  }
  client.on('offline', () => log.warn(`Disconnected from MQTT broker ${where}.`));
  client.on('connect', () => log.info(`Connected to MQTT broker ${where}.`));
  client.on('error', (error) => log.warn(`MQTT connection to ${where}: ${error.message}`));
  return client;
}

/** The size of a PUBLISH packet (MQTT 3.1.1): fixed header, topic, packet identifier when QoS > 0, payload;
 * what `max_packet_size` bounds. */
export function publishPacketSize(topic: string, qos: number, payloadBytes: number): number {
  const remaining = 2 + Buffer.byteLength(topic) + (qos > 0 ? 2 : 0) + payloadBytes;
  const lengthBytes = remaining < 128 ? 1 : remaining < 16384 ? 2 : remaining < 2097152 ? 3 : 4;
  return 1 + lengthBytes + remaining;
}
