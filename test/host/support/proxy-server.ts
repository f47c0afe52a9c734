// A local HTTP proxy (the `proxy` package) that records what went through it: the absolute URIs of the
// plain requests it forwarded and the `host:port` of each CONNECT tunnel, with the Proxy-Authorization
// header of each. Listens on loopback: tests that use it are integration tests.

import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface LocalProxy {
  /** `http://127.0.0.1:<port>`. */
  uri: string;
  /** Forwarded requests: `GET http://host:port/path`. */
  requests: string[];
  /** Tunnels: `host:port`. */
  connects: string[];
  /** The Proxy-Authorization header of each request or tunnel, in order. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

export async function localProxy(): Promise<LocalProxy> {
  const server = createProxy(createServer());
  const requests: string[] = [];
  const connects: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const authorization = (headers: IncomingHttpHeaders) => authorizations.push(headers['proxy-authorization']);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.prependListener('request', (request) => {
    requests.push(`${request.method} ${request.url}`);
    authorization(request.headers);
  });
  server.prependListener('connect', (request) => {
    connects.push(request.url!);
    authorization(request.headers);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    connects,
    authorizations,
    close: async () => {
      // Tunnels outlive their requests: end them so that the server closes.
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
