// svc top's link to an instance's API: queries over HTTP, subscriptions over WebSocket (graphql-ws's
// client, `graphql-transport-ws`), and the loop that feeds the dashboard and reconnects when the instance
// goes away (as Vector's top: after 5 seconds, reloading the components each time).

import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { postQuery, RECONNECT_DELAY_MS, websocketUrl } from '../api-client.js';
import { COMPONENTS_QUERY } from './documents.js';
import { ALL_COMPONENTS, componentRows, subscriptions, type ComponentFilter, type ComponentsData } from './feed.js';
import type { TopEvent } from './state.js';

/** The connection to the API was lost and not to be retried (--no-reconnect). */
export class ConnectionLost extends Error {}

export interface FeedOptions {
  url: URL;
  intervalMs: number;
  filter: ComponentFilter;
  reconnect: boolean;
}

export interface Feed {
  /** Closes the connection and stops reconnecting. */
  stop(): Promise<void>;
}

/**
 * Feeds `dispatch` with the instance's components and metrics until stopped. When the connection is lost
 * it says so and reconnects every RECONNECT_DELAY_MS, or, without `reconnect`, calls `lost`.
 */
export function startFeed(
  options: FeedOptions,
  dispatch: (event: TopEvent) => void,
  lost: (error: ConnectionLost) => void,
): Feed {
  let stopped = false;
  // Ends a components query in flight when the feed stops.
  const stopping = new AbortController();
  let client: Client | undefined;
  let retry: { timer: NodeJS.Timeout; wake(): void } | undefined;

  /** One connection: the components, then the subscriptions until the socket closes. Resolves with why it ended. */
  async function connection(): Promise<string> {
    try {
      const data = await postQuery<ComponentsData>(
        options.url,
        COMPONENTS_QUERY,
        { first: ALL_COMPONENTS },
        stopping.signal,
      );
      dispatch({ type: 'components', rows: componentRows(data, options.filter) });
    } catch (error) {
      const reason = (error as Error).message;
      dispatch({ type: 'problem', message: reason });
      return reason;
    }
    if (stopped) return 'stopped';
    return new Promise((resolve) => {
      client = createClient({
        url: websocketUrl(options.url),
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        on: {
          connected: () => dispatch({ type: 'connection', status: { state: 'connected', since: new Date() } }),
          closed: (event) =>
            resolve(`the connection closed with code ${(event as { code?: number }).code ?? 'unknown'}`),
        },
      });
      for (const subscription of subscriptions(options.intervalMs, options.filter)) {
        client.subscribe(
          { query: subscription.query, variables: subscription.variables },
          {
            next(result) {
              if (result.errors?.length)
                dispatch({ type: 'problem', message: result.errors.map((error) => error.message).join('; ') });
              const event = result.data && subscription.event(result.data);
              if (event) dispatch(event);
            },
            // A lost socket ends every subscription with its close event, already handled by `closed`.
            error(error) {
              if (Array.isArray(error))
                dispatch({ type: 'problem', message: error.map((each: Error) => each.message).join('; ') });
            },
            complete() {},
          },
        );
      }
    });
  }

  const running = (async () => {
    while (!stopped) {
      const reason = await connection();
      if (stopped) return;
      void client?.dispose();
      if (!options.reconnect) {
        dispatch({ type: 'connection', status: { state: 'disconnected', retryMs: undefined } });
        lost(new ConnectionLost(reason));
        return;
      }
      dispatch({ type: 'connection', status: { state: 'disconnected', retryMs: RECONNECT_DELAY_MS } });
      await new Promise<void>((resolve) => (retry = { timer: setTimeout(resolve, RECONNECT_DELAY_MS), wake: resolve }));
    }
  })();

  return {
    async stop() {
      stopped = true;
      stopping.abort();
      if (retry) {
        clearTimeout(retry.timer);
        retry.wake();
      }
      await client?.dispose();
      await running;
    },
  };
}
