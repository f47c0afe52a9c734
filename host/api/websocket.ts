// GraphQL over WebSocket on /graphql, in the two sub-protocols Vector's clients speak: graphql-ws's
// `graphql-transport-ws` and Apollo's legacy `graphql-ws` (legacy-ws.ts). The client's
// Sec-WebSocket-Protocol picks one (the current one when it offers both); with neither, graphql-ws refuses
// the socket (4406). graphql-ws runs through its transport-neutral `makeServer` rather than its `useServer`
// for `ws`, which prints errors with their stacks on the console and cannot bound what a socket buffers;
// here both protocols get the same socket:
// - a send resolves once the message is written out, so each operation runs at the pace its client reads;
// - a client whose unsent messages pass MAX_BUFFERED_BYTES is closed (1008) rather than sent fewer
//   messages: a dropped message would silently falsify what the client shows (a tap missing events, a
//   removed component still listed), while a close tells it, and tap and top reconnect;
// - a ping every PING_INTERVAL_MS; a client that has not answered the previous one is cut off (a dead peer,
//   or one that stopped reading);
// - a client's bad frames and the service's own failures are logged on one line, never thrown.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GraphQLSchema } from 'graphql';
import { GRAPHQL_TRANSPORT_WS_PROTOCOL, makeServer, type WebSocket as ProtocolSocket } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../log.js';
import type { ApiContext } from './context.js';
import { LEGACY_PROTOCOL, serveLegacy } from './legacy-ws.js';
import { logFailures, prepareOperation } from './operation.js';

/** Unsent bytes a client may leave behind. Each operation waits for its previous message to be written,
 * so this is reached only by many operations at once or a client that has stopped reading. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** graphql-ws's own keep-alive for `ws`. */
const PING_INTERVAL_MS = 12_000;
/** The largest message a client may send (a document and its variables); ws closes with 1009 above it. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** RFC 6455 codes: a policy violation, and a failure of the server. */
const POLICY_VIOLATION = 1008;
const INTERNAL_ERROR = 1011;

export interface SubscriptionServer {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (1001); one that does not answer within a second is cut off. */
  close(): Promise<void>;
}

export function subscriptionServer(schema: GraphQLSchema, context: ApiContext, log: Logger): SubscriptionServer {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (offered) =>
      [GRAPHQL_TRANSPORT_WS_PROTOCOL, LEGACY_PROTOCOL].find((protocol) => offered.has(protocol)) ?? false,
  });
  const transportWs = makeServer({
    schema,
    context,
    onSubscribe: (_ctx, _id, payload) => {
      const prepared = prepareOperation(schema, payload, context);
      return 'errors' in prepared ? prepared.errors : prepared.args;
    },
    onNext: (_ctx, _id, _payload, _args, result) => logFailures(log, result.errors),
    onError: (_ctx, _id, _payload, errors) => logFailures(log, errors),
  });
  sockets.on('connection', (ws: WebSocket, request: IncomingMessage) => {
    const socket = guardedSocket(ws, request, log);
    const closed =
      ws.protocol === LEGACY_PROTOCOL ? serveLegacy(socket, schema, context, log) : transportWs.opened(socket, {});
    ws.once('close', (code, reason) => {
      closed(code, reason.toString()).catch((error: unknown) =>
        log.error(
          'Failed to end the operations of a closed WebSocket.',
          { error: error instanceof Error ? error.message : String(error) },
          error,
        ),
      );
    });
  });
  return {
    handleUpgrade(request, socket, head) {
      sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
    },
    async close() {
      const closed = new Promise<void>((resolve) => sockets.close(() => resolve()));
      for (const ws of sockets.clients) ws.close(1001, 'the server is shutting down');
      const cutOff = setTimeout(() => {
        for (const ws of sockets.clients) ws.terminate();
      }, 1000);
      await closed;
      clearTimeout(cutOff);
    },
  };
}

/** A close reason fits in 123 bytes of UTF-8 (RFC 6455); ws throws on a longer one. */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

function guardedSocket(ws: WebSocket, request: IncomingMessage, log: Logger): ProtocolSocket {
  const client = `${request.socket.remoteAddress}:${request.socket.remotePort}`;
  // ws reports a client's bad frames here, and closes with the matching code (1002, 1007, 1009).
  ws.on('error', (error) => log.warn('Closed a WebSocket connection on an error.', { client, error: error.message }));

  let answered = true;
  ws.on('pong', () => (answered = true));
  const ping = setInterval(() => {
    if (ws.readyState !== ws.OPEN) return;
    if (!answered) {
      log.warn('Cut off a WebSocket client that did not answer a ping.', { client, interval_ms: PING_INTERVAL_MS });
      ws.terminate();
      return;
    }
    answered = false;
    ws.ping();
  }, PING_INTERVAL_MS);

  // Sends still waiting when the socket closes resolve then: their operations end with the socket.
  const waiting = new Set<() => void>();
  ws.once('close', () => {
    clearInterval(ping);
    for (const resolve of waiting) resolve();
  });

  return {
    protocol: ws.protocol,
    send: (data) =>
      new Promise<void>((resolve) => {
        if (ws.readyState !== ws.OPEN) return resolve();
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
          log.warn('Closed a WebSocket client that does not read its messages.', {
            client,
            buffered_bytes: ws.bufferedAmount,
          });
          ws.close(
            POLICY_VIOLATION,
            closeReason(`the client does not read its messages: more than ${MAX_BUFFERED_BYTES} bytes wait unsent`),
          );
          return resolve();
        }
        waiting.add(resolve);
        ws.send(data, () => {
          waiting.delete(resolve);
          resolve();
        });
      }),
    close: (code, reason) => ws.close(code, closeReason(reason ?? '')),
    onMessage: (handle) =>
      ws.on('message', (data) => {
        handle(String(data)).catch((error: unknown) => {
          log.error(
            'Failed to handle a WebSocket message.',
            { client, error: error instanceof Error ? error.message : String(error) },
            error,
          );
          ws.close(INTERNAL_ERROR, 'internal server error');
        });
      }),
  };
}
