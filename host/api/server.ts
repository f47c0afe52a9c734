// The management API server (spec 1): hono on Node's HTTP server. GET|HEAD /health; POST /graphql for
// queries; WebSocket upgrades on /graphql for subscriptions (websocket.ts: graphql-ws's
// `graphql-transport-ws` and the legacy `graphql-ws` sub-protocols). Nothing is served unless
// `api.enabled`; /graphql only with `api.graphql`. With `api.tls.enabled` it serves HTTPS (and WSS).

import type { AddressInfo } from 'node:net';
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { execute, GraphQLError, type GraphQLSchema } from 'graphql';
import { Hono } from 'hono';
import type { ApiOptions } from '../config/global.js';
import type { Logger } from '../log.js';
import type { ApiContext } from './context.js';
import { buildApiSchema } from './schema.js';
import { graphQLRequest, prepareOperation, type GraphQLRequest } from './operation.js';
import { coreResolvers } from './resolvers/core.js';
import { machineResolvers } from './resolvers/machine.js';
import { addPlayground, servesPlayground } from './playground.js';
import { componentsResolvers } from './resolvers/components.js';
import { metricsResolvers } from './resolvers/metrics.js';
import { subscriptionServer } from './websocket.js';
import { tapResolvers } from './resolvers/tap.js';
import { serverTlsOptions } from '../components/support/tls.js';

/** The schema with every resolver module of the API. */
export function apiSchema(): GraphQLSchema {
  return buildApiSchema([coreResolvers, machineResolvers, componentsResolvers, metricsResolvers, tapResolvers]);
}

export interface ApiServer {
  /** The address bound (the port chosen when the configured one is 0). */
  address: AddressInfo;
  close(): Promise<void>;
}

export class ApiStartError extends Error {}

/** `host:port`, `[v6]:port`. */
function parseListenAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(address.slice(at + 1)) };
}

/** Runs a query over HTTP: every GraphQL error (syntax, validation, execution) is in the result's `errors`. */
async function runQuery(schema: GraphQLSchema, request: GraphQLRequest, context: ApiContext): Promise<unknown> {
  const prepared = prepareOperation(schema, request, context);
  if ('errors' in prepared) return prepared;
  if (prepared.kind === 'subscription') {
    return {
      errors: [
        new GraphQLError('Subscriptions are served over WebSocket on /graphql (graphql-transport-ws or graphql-ws).'),
      ],
    };
  }
  return execute(prepared.args);
}

function app(options: ApiOptions, schema: GraphQLSchema, context: ApiContext): Hono {
  const hono = new Hono();
  hono.get('/health', (c) => (context.running() ? c.json({ ok: true }) : c.json({ ok: false }, 503)));
  if (options.graphql) {
    hono.post('/graphql', async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return c.json({ errors: [{ message: 'the body is not JSON' }] }, 400);
      }
      const request = graphQLRequest(body);
      if (typeof request === 'string') return c.json({ errors: [{ message: request }] }, 400);
      return c.json(await runQuery(schema, request, context));
    });
  }
  if (servesPlayground(options)) addPlayground(hono);
  return hono;
}

/** Starts the API on `options.address`; rejects with ApiStartError when it cannot listen there. */
export async function startApi(options: ApiOptions, context: ApiContext, log: Logger): Promise<ApiServer> {
  const schema = apiSchema();
  const tls = await serverTlsOptions(options.tls).catch((error: Error) => {
    throw new ApiStartError(`The API cannot serve TLS: api.${error.message}`);
  });
  const server = createAdaptorServer({
    fetch: app(options, schema, context).fetch,
    ...(tls && { createServer: (await import('node:https')).createServer, serverOptions: tls }),
  }) as HttpServer;
  const subscriptions = options.graphql ? subscriptionServer(schema, context, log) : undefined;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!subscriptions || new URL(request.url ?? '/', 'http://x').pathname !== '/graphql') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    subscriptions.handleUpgrade(request, socket, head);
  });
  const { host, port } = parseListenAddress(options.address);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'the address is already in use'
          : error.code === 'EACCES'
            ? 'permission denied'
            : error.message;
      reject(new ApiStartError(`The API cannot listen on ${options.address} (api.address): ${reason}.`));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    async close() {
      await subscriptions?.close();
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
