// What the `amqp` source and sink share (Vector's src/amqp.rs): `connection_string` (`amqp://user:password@
// host:port/vhost`, `amqps://` for TLS, the default vhost written `%2f`) and `tls`, turned into a connection
// of amqplib (AMQP 0.9.1, as RabbitMQ speaks). The query takes lapin's `heartbeat` (seconds), `frame_max`,
// `channel_max` and `connection_timeout` (ms), and the `timeout` (seconds) of Vector's examples. Logs and
// errors name the broker without its credentials.

import type { Writable } from 'node:stream';
import { z } from 'zod';
import type { ChannelModel, Options } from 'amqplib';
import type { Logger } from '../../log.js';
import { clientTlsOptions, tlsClientSchema, tlsFiles } from './tls.js';

/** The options of both components that say where and how to connect. */
export const amqpConnectionFields = {
  connection_string: z.string().superRefine((value, context) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      context.addIssue({ code: 'custom', message: `not a URI: expected amqp://user:password@host:port/vhost` });
      return;
    }
    if (url.protocol !== 'amqp:' && url.protocol !== 'amqps:')
      context.addIssue({
        code: 'custom',
        message: `the scheme must be amqp or amqps, not "${url.protocol.slice(0, -1)}"`,
      });
    else if (url.hostname === '') context.addIssue({ code: 'custom', message: 'the URI names no host' });
  }),
  tls: tlsClientSchema.optional(),
};

export interface AmqpConnectionConfig {
  connection_string: string;
  tls?: z.output<typeof tlsClientSchema> | undefined;
}

/** Files a connection reads when built: a reload rebuilds the component when one changed. */
export function amqpFiles(config: AmqpConnectionConfig): string[] {
  return new URL(config.connection_string).protocol === 'amqps:' ? tlsFiles(config.tls) : [];
}

/** The broker as logs name it: `host:port (vhost "/")`, no credentials. */
export function amqpBroker(connectionString: string): string {
  const url = new URL(connectionString);
  const port = url.port || (url.protocol === 'amqps:' ? '5671' : '5672');
  return `${url.hostname}:${port} (vhost "${decodeURIComponent(url.pathname.slice(1)) || '/'}")`;
}

/** amqplib's connection options for a connection string (lapin's reading of it). */
function connectOptions(url: URL): Options.Connect {
  const query = url.searchParams;
  const integer = (name: string) => (query.has(name) ? Number.parseInt(query.get(name)!, 10) : undefined);
  const secure = url.protocol === 'amqps:';
  return {
    protocol: secure ? 'amqps' : 'amqp',
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (secure ? 5671 : 5672) : Number(url.port),
    // The URI's user and password, guest/guest when it has neither (lapin's and amqplib's default).
    username: url.username === '' && url.password === '' ? 'guest' : decodeURIComponent(url.username),
    password: url.username === '' && url.password === '' ? 'guest' : decodeURIComponent(url.password),
    vhost: decodeURIComponent(url.pathname.slice(1)) || '/',
    ...(integer('heartbeat') !== undefined && { heartbeat: integer('heartbeat') }),
    ...(integer('frame_max') !== undefined && { frameMax: integer('frame_max') }),
    ...(integer('channel_max') !== undefined && { channelMax: integer('channel_max') }),
  };
}

/** How long the first connection may take, in ms, when the query says. */
function connectTimeout(url: URL): number | undefined {
  const query = url.searchParams;
  if (query.has('connection_timeout')) return Number(query.get('connection_timeout'));
  if (query.has('timeout')) return Number(query.get('timeout')) * 1000;
  return undefined;
}

/** Connects as `config` says; rejects with a message naming the broker. The connection's errors are logged
 * (a closed connection emits `close` too, which the component handles). */
export async function amqpConnect(config: AmqpConnectionConfig, log: Logger): Promise<ChannelModel> {
  const { connect } = await import('amqplib');
  const url = new URL(config.connection_string);
  const broker = amqpBroker(config.connection_string);
  const tls = url.protocol === 'amqps:' ? await clientTlsOptions(config.tls, log) : {};
  const timeout = connectTimeout(url);
  let connection: ChannelModel;
  try {
    connection = await connect(connectOptions(url), { ...tls, ...(timeout !== undefined && { timeout }) });
  } catch (error) {
    throw new Error(`could not connect to AMQP broker at ${broker}: ${(error as Error).message}`);
  }
  connection.on('error', (error: Error) => log.warn(`AMQP connection to ${broker}: ${error.message}`));
  coalesceWrites(connection);
  return connection;
}

/** amqplib writes each frame to its socket on its own, a system call per publish or acknowledgement (most of
 * a sink's time). Held back (corked) until the tick ends, the frames written in one tick leave in one write. */
function coalesceWrites(connection: ChannelModel): void {
  const socket = (connection as unknown as { connection?: { stream?: Writable } }).connection?.stream;
  if (typeof socket?.cork !== 'function') return;
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function (this: Writable, ...args: Parameters<Writable['write']>) {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Writable['write'];
}

/** Closes a connection, ignoring one already closed. */
export async function amqpClose(connection: ChannelModel): Promise<void> {
  await connection.close().catch(() => {});
}
