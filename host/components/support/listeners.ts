// Listening sockets shared by the `socket` and `syslog` sources: stream listeners (TCP, Unix stream) frame
// each connection on its own, datagram listeners (UDP) decode each datagram whole. Both bind in `build`,
// so a taken port fails the start-up with the address in the message. A TCP listener with `tls.enabled`
// accepts TLS connections only (support/tls.ts).

import { once, setMaxListeners } from 'node:events';
import { chmod, lstat, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket, type TlsOptions } from 'node:tls';
import { createSocket, type Socket as DatagramSocket } from 'node:dgram';
import { BlockList, isIP, isIPv6 } from 'node:net';
import { z } from 'zod';
import type { ComponentEnv, Source, SourceContext } from '../component.js';
import { pumpReadable, stampSource, type MessageDecoder, type Stamp, type StampOrigin } from './decoding.js';
import { certificateSubject, reportHandshakeFailures, serverTlsOptions, type TlsSourceConfig } from './tls.js';

/** Who sent the bytes: an IP and port, or the path of a Unix socket. */
export interface Peer {
  address: string;
  port?: number;
}

/** `host:port`, `[v6]:port` → host and port; Vector requires the port. */
export function parseListenAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(address);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) throw new Error(`invalid address "${address}": expected host:port, e.g. 0.0.0.0:9000`);
  return { host: match[1] ?? (match[2] || '0.0.0.0'), port };
}

function listenError(where: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'EADDRINUSE'
      ? 'address already in use'
      : code === 'EACCES'
        ? 'permission denied'
        : (error as Error).message;
  return new Error(`could not listen on ${where}: ${why}`);
}

/** Binds a listening server (the HTTP ones of sources and sinks) to `address` (host:port); fails naming the
 * address and why. */
export async function listenOn(server: Server, address: string): Promise<void> {
  const { host, port } = parseListenAddress(address);
  try {
    server.listen(port, host);
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    server.close();
    throw listenError(address, error);
  }
}

/** `network/prefix` (or a bare address: the address alone) → Node's address, prefix and family. */
function parseNetwork(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, ...rest] = text.split('/');
  const version = isIP(address);
  const bits = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (version === 0 || rest.length > 0 || !/^\d*$/.test(prefixText ?? '') || !(prefix >= 0 && prefix <= bits))
    return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** `permit_origin` (Vector's TCP sources): the networks, in CIDR notation, whose peers may connect. */
export const permitOriginSchema = z
  .array(z.string().refine((text) => parseNetwork(text) !== undefined, 'expected an IP network in CIDR notation'))
  .optional();

/** The peers a `permit_origin` list lets in; an IPv4 peer on a dual-stack socket (`::ffff:a.b.c.d`) counts
 * as IPv4. */
function originFilter(networks: readonly string[]): (address: string) => boolean {
  const allowed = new BlockList();
  for (const network of networks) {
    const { address, prefix, family } = parseNetwork(network)!;
    allowed.addSubnet(address, prefix, family);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    return allowed.check(mapped ?? address, isIPv6(mapped ?? address) ? 'ipv6' : 'ipv4');
  };
}

export type StreamListen =
  | {
      kind: 'tcp';
      address: string;
      /** `permit_origin`: the networks peers must be in. */
      permitOrigin?: readonly string[];
      connectionLimit?: number;
      receiveBufferBytes?: number;
      keepaliveSecs?: number;
      maxConnectionDurationSecs?: number;
      tls?: TlsOptions;
      /** With TLS: the source stamping events with the subject of the client's certificate, at
       * `tls.client_metadata_key` (legacy namespace) or `%<source type>.tls_client_metadata` (Vector's). */
      clientMetadata?: { key: string | undefined; origin: StampOrigin };
    }
  | { kind: 'unix'; path: string; socketFileMode?: number };

/** The listener of a `mode: tcp` source (socket, syslog), from its options as Vector names them; reads its
 * certificates. */
export async function tcpListen(
  options: {
    address: string;
    connection_limit?: number;
    receive_buffer_bytes?: number;
    keepalive?: { time_secs?: number };
    max_connection_duration_secs?: number;
    tls?: TlsSourceConfig;
    permit_origin?: readonly string[];
  },
  origin: StampOrigin,
): Promise<StreamListen> {
  const tls = await serverTlsOptions(options.tls);
  return {
    kind: 'tcp',
    address: options.address,
    permitOrigin: options.permit_origin,
    connectionLimit: options.connection_limit,
    receiveBufferBytes: options.receive_buffer_bytes,
    keepaliveSecs: options.keepalive?.time_secs,
    maxConnectionDurationSecs: options.max_connection_duration_secs,
    tls,
    clientMetadata: tls && { key: options.tls?.client_metadata_key, origin },
  };
}

/**
 * Binds a stream listener; the source frames every connection with its own stream of `decoder` and stamps
 * its events with `stamp(peer)`. At shutdown it stops accepting, half-closes each connection, reads on
 * until the peer closes or `shutdownTimeoutSecs` pass, and sends what was read. A TCP connection open for
 * `maxConnectionDurationSecs` is half-closed the same way (as Vector does): the peer finishes its frame
 * and closes, and the source reads to the end.
 */
export async function streamListener(
  listen: StreamListen,
  decoder: MessageDecoder,
  env: ComponentEnv,
  stamp: (peer: Peer) => Stamp,
  shutdownTimeoutSecs: number,
): Promise<Source> {
  const where = listen.kind === 'tcp' ? listen.address : listen.path;
  const tls = listen.kind === 'tcp' ? listen.tls : undefined;
  const highWaterMark =
    listen.kind === 'tcp' && listen.receiveBufferBytes ? { highWaterMark: listen.receiveBufferBytes } : {};
  // A TLS socket is not paused on connect (its handshake must run); it buffers no further than its high-water
  // mark until read.
  const server: Server = tls
    ? createTlsServer({ ...tls, ...highWaterMark })
    : createServer({ pauseOnConnect: true, ...highWaterMark });
  if (tls) reportHandshakeFailures(server as ReturnType<typeof createTlsServer>, env);
  if (listen.kind === 'tcp' && listen.connectionLimit !== undefined) server.maxConnections = listen.connectionLimit;
  try {
    if (listen.kind === 'tcp') {
      const { host, port } = parseListenAddress(listen.address);
      server.listen({ host, port, ipv6Only: false });
    } else {
      await removeStaleSocket(listen.path);
      server.listen(listen.path);
    }
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
    if (listen.kind === 'unix' && listen.socketFileMode !== undefined) await chmod(listen.path, listen.socketFileMode);
  } catch (error) {
    server.close();
    throw listenError(where, error);
  }
  const permitted =
    listen.kind === 'tcp' && listen.permitOrigin !== undefined ? originFilter(listen.permitOrigin) : undefined;
  const connections = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  // Connections made before `run` wait (paused) for it.
  const early: Socket[] = [];
  let accept: ((socket: Socket) => void) | undefined;
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) =>
    accept ? accept(socket) : early.push(socket),
  );

  return {
    async run(context: SourceContext) {
      // Connections read on after shutdown until their peer closes, at most this long.
      const cutoff = new AbortController();
      // Every connection listens to it.
      setMaxListeners(0, cutoff.signal);
      accept = (socket) => {
        if (permitted !== undefined && !permitted(socket.remoteAddress ?? '')) {
          // Vector refuses the connection at accept: an error of the listener, not of a connection.
          env.telemetry.error('connection_failed', 'receiving');
          env.log.error(`Connection from ${socket.remoteAddress} refused: not in permit_origin.`, {
            error_type: 'connection_failed',
            stage: 'receiving',
            internal_log_rate_key: 'origin_refused',
          });
          socket.destroy();
          return;
        }
        if (listen.kind === 'tcp' && listen.keepaliveSecs !== undefined)
          socket.setKeepAlive(true, listen.keepaliveSecs * 1000);
        const peer: Peer =
          listen.kind === 'tcp'
            ? { address: socket.remoteAddress ?? '', port: socket.remotePort }
            : { address: listen.path };
        sockets.add(socket);
        const durationLimit =
          listen.kind === 'tcp' && listen.maxConnectionDurationSecs !== undefined
            ? setTimeout(() => {
                env.log.debug('Start graceful shutdown.', { peer_addr: peer.address });
                socket.end();
              }, listen.maxConnectionDurationSecs * 1000)
            : undefined;
        socket.on('error', (error) => {
          env.telemetry.error('connection_failed', 'receiving');
          env.log.error(`Connection from ${peer.address} failed: ${error.message}`, {
            error_type: 'connection_failed',
            stage: 'receiving',
            internal_log_rate_key: 'connection_failed',
          });
        });
        const metadata = listen.kind === 'tcp' ? listen.clientMetadata : undefined;
        const subject =
          metadata &&
          (metadata.key || metadata.origin.logNamespace === 'vector') &&
          certificateSubject((socket as TLSSocket).getPeerCertificate().subject ?? {});
        const stampOf =
          metadata && subject
            ? () => stampSource(stamp(peer), metadata.origin, metadata.key, ['tls_client_metadata'], { subject })
            : () => stamp(peer);
        const done: Promise<void> = pumpReadable(socket, decoder.stream(), context, stampOf, cutoff.signal)
          .catch((error: Error) =>
            env.log.error(`Reading from ${peer.address} failed: ${error.message}`, {
              internal_log_rate_key: 'reading_failed',
            }),
          )
          .finally(() => {
            clearTimeout(durationLimit);
            sockets.delete(socket);
            connections.delete(done);
            socket.destroy();
          });
        connections.add(done);
      };
      early.splice(0).forEach(accept);
      if (!context.shutdown.aborted) await once(context.shutdown, 'abort');
      server.close();
      for (const socket of sockets) socket.end();
      const timer = setTimeout(() => cutoff.abort(), shutdownTimeoutSecs * 1000);
      await Promise.all(connections);
      clearTimeout(timer);
      if (listen.kind === 'unix') await unlink(listen.path).catch(() => undefined);
    },
  };
}

/** A Unix socket file left by an earlier run is replaced; any other file at the path is an error. */
async function removeStaleSocket(path: string): Promise<void> {
  const stat = await lstat(path).catch(() => undefined);
  if (stat === undefined) return;
  if (!stat.isSocket()) throw Object.assign(new Error(`${path} exists and is not a socket`), { code: 'EEXIST' });
  await unlink(path);
}

/**
 * A UDP listener's receive buffer when `receive_buffer_bytes` is not set (the kernel caps it at
 * `net.core.rmem_max`). Vector keeps the system's default (208 KiB on Linux: ~270 datagrams); its reads run on
 * threads of their own, where ours wait for the main thread, which a batch's decoding or a GC holds for
 * milliseconds: at 40k datagrams a second the default lost 4% of them in the kernel, 4 MiB none.
 */
const DEFAULT_RECEIVE_BUFFER_BYTES = 4 << 20;

/**
 * Datagrams a UDP listener holds while the pipeline takes the batches before them (then dropped). At 40k a
 * second, the 4,000 held before ran out while the pipeline warmed up (the first ~200 ms: 1–4% dropped).
 */
const QUEUED_BYTES = 16 << 20;
/** What one held datagram costs beyond its bytes (its entry, its Buffer). */
const QUEUE_ENTRY_BYTES = 128;

/**
 * Binds a UDP listener: each datagram (cut to `maxLength` bytes) is a message of its own for `decoder`.
 * Datagrams that arrive while a batch waits downstream queue up to `QUEUED_BYTES`; beyond that they are
 * dropped and counted, as a full socket buffer would.
 */
export async function datagramListener(
  address: string,
  decoder: MessageDecoder,
  env: ComponentEnv,
  stamp: (peer: Peer) => Stamp,
  options: { maxLength?: number; receiveBufferBytes?: number },
): Promise<Source> {
  const { host, port } = parseListenAddress(address);
  const socket: DatagramSocket = createSocket({
    type: isIPv6(host) ? 'udp6' : 'udp4',
    recvBufferSize: options.receiveBufferBytes ?? DEFAULT_RECEIVE_BUFFER_BYTES,
  });
  try {
    socket.bind(port, host);
    await Promise.race([once(socket, 'listening'), once(socket, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    socket.close();
    throw listenError(address, error);
  }
  const queue: Array<{ bytes: Uint8Array; stamp: Stamp }> = [];
  let queuedBytes = 0;
  let wake: (() => void) | undefined;
  // Datagrams from one peer within one millisecond share their stamp (its time has that resolution): the
  // decoder encodes each distinct stamp once for a batch, where a stamp per datagram was encoded per datagram.
  let last: { address: string; port: number; ms: number; stamp: Stamp } | undefined;
  socket.on('message', (message, remote) => {
    if (queuedBytes >= QUEUED_BYTES) {
      env.telemetry.discarded(1, false);
      env.log.warn('Datagrams dropped: the pipeline does not keep up.', { count: 1 });
      return;
    }
    const bytes =
      options.maxLength !== undefined && message.length > options.maxLength
        ? message.subarray(0, options.maxLength)
        : message;
    const ms = Date.now();
    if (last?.ms !== ms || last.address !== remote.address || last.port !== remote.port) {
      const peer = { address: remote.address, port: remote.port };
      last = { ...peer, ms, stamp: stamp(peer) };
    }
    queue.push({ bytes, stamp: last.stamp });
    // An entry's own memory counts too, so that empty datagrams are bounded as well.
    queuedBytes += bytes.length + QUEUE_ENTRY_BYTES;
    wake?.();
  });
  socket.on('error', (error) => {
    env.telemetry.error('socket_receive_failed', 'receiving');
    env.log.error(`Receiving on ${address} failed: ${error.message}`, {
      internal_log_rate_key: 'socket_receive_failed',
    });
  });

  return {
    async run(context) {
      const stop = () => {
        socket.close();
        wake?.();
      };
      if (context.shutdown.aborted) stop();
      else context.shutdown.addEventListener('abort', stop, { once: true });
      for (;;) {
        if (queue.length > 0) {
          queuedBytes = 0;
          for (const batch of decoder.decodeMessages(queue.splice(0))) await context.send(batch);
        } else if (context.shutdown.aborted) {
          return;
        } else {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          // The datagrams the socket has read by then come too: woken by the first, a batch per datagram
          // (a decode call and a send each) fell behind ~40k a second, and the kernel dropped the rest.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    },
  };
}
