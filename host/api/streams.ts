// Async iterables that subscriptions return. They end when the client unsubscribes: graphql-js then calls
// `return()`, which clears the timer.

import { GraphQLError } from 'graphql';

/** The intervals a subscription accepts, in ms (Vector's bounds): below the least a client could busy the
 * process. */
const MIN_INTERVAL_MS = 10;
const MAX_INTERVAL_MS = 60_000;

/** Refuses an interval a subscription cannot take (a GraphQL error for the client). */
export function checkInterval(intervalMs: number): void {
  if (!Number.isInteger(intervalMs) || intervalMs < MIN_INTERVAL_MS) {
    throw new GraphQLError(`interval must be an integer of at least ${MIN_INTERVAL_MS} ms, got ${intervalMs}`);
  }
  if (intervalMs > MAX_INTERVAL_MS)
    throw new GraphQLError(`interval must be at most ${MAX_INTERVAL_MS} ms, got ${intervalMs}`);
}

/** Yields `produce()` at once, then every `intervalMs`; a tick where it returns undefined sends nothing. */
export function every<T>(intervalMs: number, produce: () => T | undefined): AsyncIterable<T> {
  checkInterval(intervalMs);
  return {
    [Symbol.asyncIterator]() {
      let timer: NodeJS.Timeout | undefined;
      let first = true;
      let done = false;
      let wake: (() => void) | undefined;
      return {
        async next(): Promise<IteratorResult<T>> {
          for (;;) {
            if (!first) {
              await new Promise<void>((resolve) => {
                wake = resolve;
                timer = setTimeout(resolve, intervalMs);
              });
            }
            first = false;
            if (done) return { done: true, value: undefined };
            const value = produce();
            if (value !== undefined) return { done: false, value };
          }
        },
        async return(): Promise<IteratorResult<T>> {
          done = true;
          clearTimeout(timer);
          wake?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
