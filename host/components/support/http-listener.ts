// The listening side of the HTTP sources (http_server, splunk_hec): a Hono app served on `address`, over TLS
// with `tls.enabled`, with Vector's `keepalive.max_connection_age_secs` (a connection older than its jittered
// age gets `Connection: close` on its next answer). At shutdown it stops accepting, closes idle connections,
// and each request under way is answered before its connection closes. Requests send their events on through
// `send` while the source runs.

import { once } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { createAdaptorServer } from '@hono/node-server';
import { z } from 'zod';
import type { EventBatch } from '../../topology/batch.js';
import type { ComponentEnv, SourceContext } from '../component.js';
import { parseListenAddress } from './listeners.js';
import { reportHandshakeFailures, serverTlsOptions, type TlsEnableableConfig } from './tls.js';

/** Vector's `keepalive` of its HTTP sources. */
export const keepaliveSchema = z
  .strictObject({
    max_connection_age_secs: z.number().int().nonnegative().default(300),
    max_connection_age_jitter_factor: z.number().min(0).max(1).default(0.1),
  })
  .default({ max_connection_age_secs: 300, max_connection_age_jitter_factor: 0.1 });

export class HttpListener {
  /** Set at shutdown: requests still coming are answered 503 by the source. */
  stopping = false;
  /** When each connection is to be closed (ms), jittered to spread reconnections. */
  private readonly closeAfter = new WeakMap<Socket, number>();
  /** Requests not answered in full yet: at shutdown their connections close only once they are. */
  private readonly answering = new Map<ServerResponse, Promise<void>>();
  private closed: Promise<void> | undefined;
  private context: SourceContext | undefined;
  /** Batches sent on and not yet taken downstream. */
  private readonly inFlight = new Set<Promise<void>>();

  private constructor(private readonly server: Server) {}

  /** Serves `fetch` on `address`; a taken port fails here, with the address in the message. */
  static async listen(
    fetch: Parameters<typeof createAdaptorServer>[0]['fetch'],
    address: string,
    tlsConfig: TlsEnableableConfig | undefined,
    keepalive: z.infer<typeof keepaliveSchema>,
    env: ComponentEnv,
  ): Promise<HttpListener> {
    const { createAdaptorServer: createServer } = await import('@hono/node-server');
    const { host, port } = parseListenAddress(address);
    const tls = await serverTlsOptions(tlsConfig);
    const server = createServer({
      fetch,
      ...(tls && { createServer: (await import('node:https')).createServer, serverOptions: tls }),
    }) as Server;
    if (tls) reportHandshakeFailures(server as HttpsServer, env);
    const listener = new HttpListener(server);
    const { max_connection_age_secs: maxAge, max_connection_age_jitter_factor: jitter } = keepalive;
    // Over TLS, the socket requests come on is the TLS one, made once the handshake is done.
    server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) =>
      listener.closeAfter.set(socket, Date.now() + maxAge * 1000 * (1 + jitter * (2 * Math.random() - 1))),
    );
    server.on('request', (_request, response: ServerResponse) => {
      // Once shutting down, each answer closes its connection.
      if (listener.stopping) response.shouldKeepAlive = false;
      listener.answering.set(
        response,
        once(response, 'close').then(() => void listener.answering.delete(response)),
      );
    });
    try {
      server.listen(port, host);
      await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
    } catch (error) {
      server.close();
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        `could not listen on ${address}: ${code === 'EADDRINUSE' ? 'address already in use' : (error as Error).message}`,
      );
    }
    return listener;
  }

  /** Whether requests' events can be sent on: the source runs and is not shutting down. */
  get accepting(): boolean {
    return this.context !== undefined && !this.stopping;
  }

  /** Sends a request's events on (only while `accepting`). */
  send(batch: EventBatch): Promise<void> {
    const sent = this.context!.send(batch);
    this.inFlight.add(sent);
    return sent.finally(() => this.inFlight.delete(sent));
  }

  /** The source's `run`: requests send until shutdown; resolves once what they sent was taken. */
  async run(context: SourceContext): Promise<void> {
    this.context = context;
    if (!context.shutdown.aborted) await once(context.shutdown, 'abort');
    this.stop();
    await Promise.all(this.inFlight);
  }

  /** Whether the connection has outlived its age: its next answer closes it. */
  expired(socket: Socket): boolean {
    return Date.now() >= (this.closeAfter.get(socket) ?? Infinity);
  }

  /** At shutdown: no new connections, idle ones closed, each answer under way closes its connection. */
  private stop(): void {
    this.stopping = true;
    for (const response of this.answering.keys()) response.shouldKeepAlive = false;
    this.closed = new Promise((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
  }

  /** Resolves once every request under way is answered and the connections are closed. */
  async drained(): Promise<void> {
    while (this.answering.size > 0) await Promise.all(this.answering.values());
    this.server.closeAllConnections();
    await this.closed;
  }
}
