// Vector's retry policy for sinks (its FibonacciRetryPolicy): the wait before each retry grows as the
// Fibonacci sequence times the initial backoff (1, 2, 3, 5, 8 … × `retry_initial_backoff_secs`), capped at
// `retry_max_duration_secs`; with `retry_jitter_mode: Full` the wait is uniform in (0, backoff]. A receiver
// that recovers is retried within one backoff step, and the steps grow more slowly than doubling.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../log.js';
import type { ComponentTelemetry } from '../../telemetry/component.js';

/** Vector's `request.retry_*` options, as parsed. */
export interface RetryOptions {
  retry_attempts: number;
  retry_initial_backoff_secs: number;
  retry_jitter_mode: 'Full' | 'None';
  retry_max_duration_secs: number;
}

/** How a sink waits between attempts and draws its jitter; tests inject their own. */
export interface RetryTimer {
  /** Resolves after `ms`; rejects at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

export const realTimer: RetryTimer = {
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
  random: Math.random,
};

/** The waits before successive retries, in ms. */
export class FibonacciBackoff {
  private previous = 0;
  private current: number;

  constructor(
    initialMs: number,
    private readonly maxMs: number,
    private readonly jitter: RetryOptions['retry_jitter_mode'],
    private readonly random: () => number,
  ) {
    this.current = initialMs;
  }

  next(): number {
    const backoff = Math.min(this.previous + this.current, this.maxMs);
    this.previous = this.current;
    this.current = backoff;
    // Vector's full jitter: a whole number of ms in [1, backoff].
    return this.jitter === 'None' ? backoff : Math.floor(this.random() * backoff) + 1;
  }
}

/** An attempt's failure that another attempt cannot mend (the receiver refused the request itself): given up
 * on at once. */
export class NotRetriable extends Error {}

/** One request's retries: the wait before each, until `retry_attempts` retries are spent. */
export class RetryPolicy {
  private remaining: number;
  private readonly backoff: FibonacciBackoff;

  constructor(options: RetryOptions, random: () => number) {
    this.remaining = options.retry_attempts;
    this.backoff = new FibonacciBackoff(
      options.retry_initial_backoff_secs * 1000,
      options.retry_max_duration_secs * 1000,
      options.retry_jitter_mode,
      random,
    );
  }

  /** The wait in ms before the next retry, or undefined when no retry is left. */
  nextDelay(): number | undefined {
    if (this.remaining <= 0) return undefined;
    this.remaining--;
    return this.backoff.next();
  }
}

/**
 * Runs `attempt` until it succeeds or the retries of `options` are spent, waiting Vector's backoff between
 * tries; each failure is counted (`request_failed`) and logged as `<failed>: <reason>`. Resolves false when
 * given up, or at once when `killed` aborts.
 */
export async function withRetries(
  attempt: () => Promise<void>,
  options: RetryOptions,
  timer: RetryTimer,
  killed: AbortSignal,
  env: { readonly telemetry: ComponentTelemetry; readonly log: Logger },
  failed: string,
): Promise<boolean> {
  const retries = new RetryPolicy(options, timer.random);
  for (;;) {
    try {
      await attempt();
      return true;
    } catch (error) {
      if (killed.aborted) return false;
      env.telemetry.error('request_failed', 'sending');
      const delay = error instanceof NotRetriable ? undefined : retries.nextDelay();
      env.log.warn(`${failed}: ${(error as Error).message}.${delay === undefined ? ' Giving up.' : ' Retrying.'}`, {
        error_type: 'request_failed',
        stage: 'sending',
        internal_log_rate_key: 'request_failed',
      });
      if (delay === undefined) return false;
      try {
        await timer.sleep(delay, killed);
      } catch {
        return false;
      }
    }
  }
}
