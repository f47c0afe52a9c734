// The `socket` sink: events encoded and framed onto a TCP or Unix stream connection, or one UDP datagram
// per event. A stream connection is opened on the first write and reopened with backoff when it breaks (the
// batch being written is sent again on the new connection); a peer that closes its end is noticed and the
// next write reconnects. Over TCP, `tls.enabled` makes the connection TLS (support/tls.ts).

import { createSocket, type Socket as DatagramSocket } from 'node:dgram';
import { connect, type NetConnectOpts, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import { clientTlsOptions, tlsEnableableSchema, tlsFiles } from '../support/tls.js';

/** `host:port` (IPv6 hosts in brackets). */
const address = z.string().transform((text, ctx) => {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || port < 1 || port > 65535) {
    ctx.issues.push({ code: 'custom', input: text, message: `expected "host:port", got "${text}"` });
    return z.NEVER;
  }
  return { host: match[1] ?? match[2]!, port };
});

const tcp = z.strictObject({
  mode: z.literal('tcp'),
  address,
  keepalive: z.strictObject({ time_secs: z.number().int().positive().optional() }).optional(),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
  tls: tlsEnableableSchema.optional(),
});

const udp = z.strictObject({
  mode: z.literal('udp'),
  address,
  send_buffer_bytes: z.number().int().positive().optional(),
  encoding: encodingSchema,
});

const unixStream = z.strictObject({
  // `unix` is Vector's older name of `unix_stream`.
  mode: z.enum(['unix_stream', 'unix']),
  path: z.string().min(1),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
});

const options = z.discriminatedUnion('mode', [tcp, udp, unixStream]);

type SocketOptions = z.infer<typeof options>;

/** Vector's reconnect backoff for stream sockets: 0.5 s, doubling up to 60 s (no jitter). */
class ReconnectBackoff {
  private attempt = 0;

  next(): number {
    return Math.min(500 * 2 ** this.attempt++, 60_000);
  }
}

/** A stream connection that reopens itself. */
class StreamConnection {
  private socket: Socket | undefined;
  /** Aborted by `kill`: reconnect waits stop. */
  readonly killed = new AbortController();

  constructor(
    private readonly target: NetConnectOpts,
    private readonly describe: string,
    private readonly keepaliveMs: number | undefined,
    private readonly env: ComponentEnv,
    private readonly timer: RetryTimer,
    /** TLS options when the connection is TLS. */
    private readonly tls?: ConnectionOptions,
  ) {}

  /** Writes all of `bytes`, reconnecting (and writing them again) until it succeeds or the sink is killed
   * (rejects then). The first failure reconnects at once; a peer that keeps failing the same bytes is
   * retried with backoff. */
  async send(bytes: Uint8Array): Promise<void> {
    const backoff = new ReconnectBackoff();
    for (let failures = 0; ; failures++) {
      if (failures > 1) await this.timer.sleep(backoff.next(), this.killed.signal);
      const socket = this.socket ?? (await this.reconnect(backoff));
      try {
        await new Promise<void>((resolve, reject) =>
          socket.write(bytes, (error) => (error ? reject(error) : resolve())),
        );
        return;
      } catch (error) {
        this.env.telemetry.error('write_failed', 'sending');
        this.env.log.warn(`Failed writing to ${this.describe}, reconnecting: ${(error as Error).message}`, {
          internal_log_rate_key: 'write_failed',
        });
        this.drop(socket);
      }
    }
  }

  /** One connection attempt (the healthcheck). */
  async check(): Promise<void> {
    const socket = await this.open();
    socket.destroy();
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket === undefined || socket.destroyed) return;
    await new Promise<void>((resolve) => socket.end(resolve));
    socket.destroy();
  }

  kill(): void {
    this.killed.abort();
    this.socket?.destroy();
  }

  private async reconnect(backoff: ReconnectBackoff): Promise<Socket> {
    for (;;) {
      this.killed.signal.throwIfAborted();
      try {
        const socket = await this.open();
        if (this.keepaliveMs !== undefined) socket.setKeepAlive(true, this.keepaliveMs);
        // A peer that closes its end (or an error while idle) makes the next write reconnect.
        socket.on('end', () => this.drop(socket));
        socket.on('error', () => this.drop(socket));
        socket.on('data', () => {});
        this.socket = socket;
        this.env.log.debug(`Connected to ${this.describe}.`);
        return socket;
      } catch (error) {
        this.env.telemetry.error('connection_failed', 'sending');
        const delay = backoff.next();
        this.env.log.warn(
          `Unable to connect to ${this.describe}: ${(error as Error).message}; retrying in ${delay} ms.`,
          { internal_log_rate_key: 'connection_failed' },
        );
        await this.timer.sleep(delay, this.killed.signal);
      }
    }
  }

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = this.tls ? tlsConnect({ ...this.target, ...this.tls }) : connect(this.target);
      // A TLS connection is usable once its handshake is done (a refused certificate fails it).
      socket.once(this.tls ? 'secureConnect' : 'connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  private drop(socket: Socket): void {
    if (this.socket === socket) this.socket = undefined;
    socket.destroy();
  }
}

class StreamSocketSink implements Sink {
  /** Events of the batch being written, until it is. */
  private pending = 0;

  constructor(
    private readonly connection: StreamConnection,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
  ) {}

  /** Every batch is encoded whole: a transform in front may encode it. */
  get batchEncoder(): SinkEncoder {
    return this.encoder;
  }

  async write(batch: EventBatch): Promise<void> {
    // A view of the encoder's memory will do: `send` is done with it (written, retries included) before the
    // next batch is encoded.
    const bytes = this.encoder.encode(batch, { reuse: true });
    if (bytes.length === 0) {
      batch.finalizer?.release();
      return;
    }
    this.pending = batch.count;
    try {
      await this.connection.send(bytes);
    } catch (error) {
      // Killed: `kill` counted the batch, which is not delivered.
      if (this.connection.killed.signal.aborted) return;
      throw error;
    }
    this.pending = 0;
    this.env.telemetry.sentRaw(bytes.length);
    batch.finalizer?.release();
  }

  kill(): number {
    this.connection.kill();
    return this.pending;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  healthcheck(): Promise<void> {
    return this.connection.check();
  }
}

class UdpSink implements Sink {
  private constructor(
    private readonly socket: DatagramSocket,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
  ) {
    // Errors reported outside a send (an ICMP "port unreachable" on a connected socket) are counted there.
    socket.on('error', (error) => this.failed(error, 0));
  }

  static async create(options: z.infer<typeof udp>, encoder: SinkEncoder, env: ComponentEnv): Promise<UdpSink> {
    const { host, port } = options.address;
    const type = host.includes(':') ? 'udp6' : 'udp4';
    const socket = createSocket({ type, sendBufferSize: options.send_buffer_bytes });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new UdpSink(socket, encoder, env);
  }

  async write(batch: EventBatch): Promise<void> {
    for (const payload of this.encoder.encodeEach(batch)) {
      if (payload === undefined) continue;
      try {
        await new Promise<void>((resolve, reject) =>
          this.socket.send(payload, (error) => (error ? reject(error) : resolve())),
        );
        this.env.telemetry.sentRaw(payload.length);
      } catch (error) {
        this.failed(error as Error, 1);
      }
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private failed(error: Error, events: number): void {
    this.env.telemetry.error('send_failed', 'sending');
    if (events > 0) this.env.telemetry.discarded(events, false);
    this.env.log.error(`Failed sending a datagram: ${error.message}`, {
      error_type: 'send_failed',
      stage: 'sending',
      internal_log_rate_key: 'send_failed',
    });
  }
}

const socket: SinkDefinition<SocketOptions> = {
  kind: 'sink',
  type: 'socket',
  description: 'Deliver logs to a remote socket endpoint.',
  options,
  files: (options) => (options.mode === 'tcp' ? tlsFiles(options.tls) : []),
  inputs: () => ['log', 'metric', 'trace'],
  build: (parsed, env) => buildSocketSink(parsed, env),
};

/** The sink; `timer`: how a stream connection waits between reconnects (tests drive their own). */
export async function buildSocketSink(parsed: SocketOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const messageKey = env.globals.log_schema.message_key;
  switch (parsed.mode) {
    case 'udp':
      return UdpSink.create(
        parsed,
        new SinkEncoder(encodeOptions(parsed.encoding, undefined, 'message', messageKey), env),
        env,
      );
    case 'tcp': {
      const { host, port } = parsed.address;
      // `keepalive` without `time_secs` turns keepalive on with the system's delay.
      const keepaliveMs = parsed.keepalive && (parsed.keepalive.time_secs ?? 0) * 1000;
      const tls = parsed.tls?.enabled ? await clientTlsOptions(parsed.tls, env.log) : undefined;
      const connection = new StreamConnection({ host, port }, `${host}:${port}`, keepaliveMs, env, timer, tls);
      return new StreamSocketSink(
        connection,
        new SinkEncoder(encodeOptions(parsed.encoding, parsed.framing, 'stream', messageKey), env),
        env,
      );
    }
    case 'unix':
    case 'unix_stream': {
      const connection = new StreamConnection({ path: parsed.path }, parsed.path, undefined, env, timer);
      return new StreamSocketSink(
        connection,
        new SinkEncoder(encodeOptions(parsed.encoding, parsed.framing, 'stream', messageKey), env),
        env,
      );
    }
  }
}

export default socket;
