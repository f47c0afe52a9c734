// Vector's `request` options of sinks that send requests (its TowerRequestConfig): how many at once
// (`concurrency`: a number, "none" for one, or "adaptive" — support/concurrency.ts), how many per window, how
// long one may take and how failures are retried (support/retry.ts). Each sink states its default concurrency,
// as Vector's sinks do.

import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { monotonicClock } from './clock.js';
import { AdaptiveConcurrency, type ConcurrencyLimit, FixedConcurrency } from './concurrency.js';

/** Vector's `u64::MAX` default: unlimited (retries for ever, bounded by nothing but shutdown). */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

export function requestFields(concurrency: 'adaptive' | 'none') {
  return z.strictObject({
    concurrency: z.union([z.enum(['adaptive', 'none']), z.number().int().positive()]).default(concurrency),
    adaptive_concurrency: z
      .strictObject({
        decrease_ratio: z.number().gt(0).lt(1).default(0.9),
        ewma_alpha: z.number().gt(0).lt(1).default(0.4),
        initial_concurrency: z.number().int().positive().default(1),
        max_concurrency_limit: z.number().int().positive().default(200),
        rtt_deviation_scale: z.number().nonnegative().default(2.5),
      })
      .prefault({}),
    rate_limit_duration_secs: z.number().int().positive().default(1),
    rate_limit_num: z.number().int().positive().default(UNLIMITED),
    retry_attempts: z.number().int().nonnegative().default(UNLIMITED),
    retry_initial_backoff_secs: z.number().int().positive().default(1),
    retry_jitter_mode: z.enum(['Full', 'None']).default('Full'),
    retry_max_duration_secs: z.number().int().positive().default(30),
    timeout_secs: z.number().int().positive().default(60),
  });
}
export type RequestOptions = z.output<ReturnType<typeof requestFields>>;

/** Vector's `request.concurrency`: a number, "none" (1) or "adaptive"; `fixed` overrides it (a sink that must
 * send one request at a time). */
export function concurrencyLimit(request: RequestOptions, fixed?: number): ConcurrencyLimit {
  if (fixed !== undefined || request.concurrency === 'none') return new FixedConcurrency(fixed ?? 1);
  if (request.concurrency === 'adaptive') return new AdaptiveConcurrency(request.adaptive_concurrency, monotonicClock);
  return new FixedConcurrency(request.concurrency);
}

/** Requests at most in flight at once. */
export function maxConcurrency(request: RequestOptions, fixed?: number): number {
  if (fixed !== undefined) return fixed;
  if (request.concurrency === 'none') return 1;
  if (request.concurrency === 'adaptive') return request.adaptive_concurrency.max_concurrency_limit;
  return request.concurrency;
}

/** `rate_limit_num` requests per `rate_limit_duration_secs` window. */
export class RateLimit {
  private windowStart = 0;
  private started = 0;

  private readonly limit: number;
  private readonly windowMs: number;

  constructor(request: RequestOptions) {
    this.limit = request.rate_limit_num;
    this.windowMs = request.rate_limit_duration_secs * 1000;
  }

  async take(): Promise<void> {
    for (;;) {
      const now = performance.now();
      if (now - this.windowStart >= this.windowMs) {
        this.windowStart = now;
        this.started = 0;
      }
      if (this.started < this.limit) {
        this.started++;
        return;
      }
      await sleep(this.windowStart + this.windowMs - now);
    }
  }
}
