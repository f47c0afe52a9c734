// Apollo's subscriptions-transport-ws protocol, WebSocket sub-protocol `graphql-ws`: what older GraphQL
// clients speak, Vector's own API client of its GraphQL era among them. It runs beside graphql-ws's
// `graphql-transport-ws` (websocket.ts picks by the client's Sec-WebSocket-Protocol), on the same schema
// and context, with operations prepared as over HTTP (operation.ts).
//
//   connection_init            → connection_ack, then ka at once and every KA_INTERVAL_MS
//   start {id, payload}        → data {id, payload: {data, errors}} per result, then complete {id};
//                                a request that cannot run → error {id, payload: [errors]}, and nothing more
//   stop {id}                  → the operation ends; complete {id} (as async-graphql, Vector's server, answers)
//   connection_terminate       → the server closes the socket (1000)
//
// A start before connection_init runs, as in the protocol's reference server. A message that is none of
// these closes the socket with 1002 (protocol error), as async-graphql does.

import { execute, GraphQLError, subscribe, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { WebSocket as ProtocolSocket } from 'graphql-ws';
import type { Logger } from '../log.js';
import type { ApiContext } from './context.js';
import { graphQLRequest, logFailures, prepareOperation } from './operation.js';

export const LEGACY_PROTOCOL = 'graphql-ws';

/** Apollo's client drops a connection that sent a first `ka` and then none for 30 s (its default). */
const KA_INTERVAL_MS = 12_000;

const PROTOCOL_ERROR = 1002;

type ClientMessage =
  | { type: 'connection_init' | 'connection_terminate' }
  | { type: 'start'; id: string; payload: unknown }
  | { type: 'stop'; id: string };

/** The message in `text`, or what is wrong with it (the close reason). */
function clientMessage(text: string): ClientMessage | string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return 'a message is not JSON';
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return 'a message is not a JSON object';
  const { type, id, payload } = message as Record<string, unknown>;
  switch (type) {
    case 'connection_init':
    case 'connection_terminate':
      return { type };
    case 'start':
    case 'stop':
      if (typeof id !== 'string' && typeof id !== 'number') return `a "${type}" message needs an "id"`;
      return type === 'start' ? { type, id: String(id), payload } : { type, id: String(id) };
    default:
      return `unknown message type ${JSON.stringify(type)}`;
  }
}

interface Operation {
  /** Set once the client stopped it or the socket closed: nothing more is sent for it. */
  stopped: boolean;
  /** A subscription's results, once it runs. */
  results?: AsyncGenerator<ExecutionResult>;
}

/** Serves the legacy protocol on `socket`; returns what to call when the socket has closed. */
export function serveLegacy(
  socket: ProtocolSocket,
  schema: GraphQLSchema,
  context: ApiContext,
  log: Logger,
): () => Promise<void> {
  const operations = new Map<string, Operation>();
  let keepAlive: NodeJS.Timeout | undefined;
  // Set when the socket has closed: a message handled across that moment starts nothing more.
  let closed = false;
  const send = (message: object) => socket.send(JSON.stringify(message));

  async function stop(id: string): Promise<boolean> {
    const operation = operations.get(id);
    if (operation === undefined) return false;
    operations.delete(id);
    operation.stopped = true;
    await operation.results?.return(undefined);
    return true;
  }

  async function start(id: string, payload: unknown): Promise<void> {
    // A start with the id of a running operation replaces it (the reference server's behaviour).
    await stop(id);
    if (closed) return;
    const request = graphQLRequest(payload);
    if (typeof request === 'string')
      return send({ type: 'error', id, payload: [{ message: `the "start" payload: ${request}` }] });
    const prepared = prepareOperation(schema, request, context);
    if ('errors' in prepared) return send({ type: 'error', id, payload: prepared.errors });
    const operation: Operation = { stopped: false };
    operations.set(id, operation);
    try {
      const result = prepared.kind === 'subscription' ? await subscribe(prepared.args) : await execute(prepared.args);
      if (Symbol.asyncIterator in result) {
        operation.results = result;
        // Stopped while the subscription started: end it now that there is something to end.
        if (operation.stopped) {
          await result.return(undefined);
          return;
        }
        for await (const value of result) {
          if (operation.stopped) break;
          logFailures(log, value.errors);
          await send({ type: 'data', id, payload: value });
        }
      } else {
        logFailures(log, result.errors);
        if (!operation.stopped) await send({ type: 'data', id, payload: result });
      }
      if (!operation.stopped) await send({ type: 'complete', id });
    } catch (thrown) {
      // The subscription's stream failed: the client gets the message, the log the failure.
      const cause = thrown instanceof Error ? thrown : new Error(String(thrown));
      const error = new GraphQLError(cause.message, { originalError: cause });
      logFailures(log, [error]);
      if (!operation.stopped) await send({ type: 'error', id, payload: [error] });
    } finally {
      if (operations.get(id) === operation) operations.delete(id);
    }
  }

  socket.onMessage(async (text) => {
    const message = clientMessage(text);
    if (typeof message === 'string') return socket.close(PROTOCOL_ERROR, message);
    switch (message.type) {
      case 'connection_init':
        await send({ type: 'connection_ack' });
        await send({ type: 'ka' });
        if (!closed) keepAlive ??= setInterval(() => void send({ type: 'ka' }), KA_INTERVAL_MS);
        return;
      case 'start':
        return start(message.id, message.payload);
      case 'stop':
        if (await stop(message.id)) await send({ type: 'complete', id: message.id });
        return;
      case 'connection_terminate':
        return socket.close(1000, 'connection_terminate');
    }
  });

  return async () => {
    closed = true;
    clearInterval(keepAlive);
    await Promise.all([...operations.keys()].map(stop));
  };
}
