// Async iterables that subscriptions return. They end when the client unsubscribes: graphql-js then calls
// `return()`, which clears the timer.

import { GraphQLError } from 'graphql';

/** The least interval a subscription accepts, in ms: below it a client could busy the process. */
export const MIN_INTERVAL_MS = 10;

/** Yields `produce()` at once, then every `intervalMs`. */
export function every<T>(intervalMs: number, produce: () => T): AsyncIterable<T> {
  if (!Number.isInteger(intervalMs) || intervalMs < MIN_INTERVAL_MS) {
    throw new GraphQLError(`interval must be an integer of at least ${MIN_INTERVAL_MS} ms, got ${intervalMs}`);
  }
  return {
    [Symbol.asyncIterator]() {
      let timer: NodeJS.Timeout | undefined;
      let first = true;
      let done = false;
      let wake: (() => void) | undefined;
      return {
        async next(): Promise<IteratorResult<T>> {
          if (!first) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, intervalMs);
            });
          }
          first = false;
          return done ? { done: true, value: undefined } : { done: false, value: produce() };
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
