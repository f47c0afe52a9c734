// Vector's `request.concurrency` for request-based sinks: a fixed number of requests in flight ("none" is 1),
// or "adaptive", a simplified form of Vector's Adaptive Request Concurrency (ARC). ARC is AIMD over
// observation windows about one round trip long: the limit starts at `initial_concurrency`; after a window
// in which the limit was reached with no back-pressure and the mean RTT no worse than the past average, it
// grows by one (up to `max_concurrency_limit`); after a window with back-pressure (a response the sink
// retries, a timeout or a connection error) or a mean RTT above the past average by more than
// `rtt_deviation_scale` deviations, it is multiplied by `decrease_ratio` (rounded down, at least 1). The
// past average is an EWMA (`ewma_alpha`) of the windows' mean RTTs, windows with back-pressure left out.
// Left out of Vector's ARC: its metrics (`adaptive_concurrency_*`).

import type { Clock } from './clock.js';

export interface AdaptiveConcurrencyOptions {
  decrease_ratio: number;
  ewma_alpha: number;
  initial_concurrency: number;
  max_concurrency_limit: number;
  rtt_deviation_scale: number;
}

/** What an in-flight gate asks of its limit. */
export interface ConcurrencyLimit {
  readonly limit: number;
  /** A request starts; `inFlight` requests are then in flight, it included. */
  started(inFlight: number): void;
  /** A request ended after `rttMs`; `backPressure`: the destination asked to slow down. */
  finished(rttMs: number, backPressure: boolean): void;
}

export class FixedConcurrency implements ConcurrencyLimit {
  constructor(readonly limit: number) {}
  started(): void {}
  finished(): void {}
}

/** An exponentially weighted mean and deviation. */
class Ewma {
  mean: number | undefined;
  private variance = 0;

  constructor(private readonly alpha: number) {}

  get deviation(): number {
    return Math.sqrt(this.variance);
  }

  update(value: number): void {
    if (this.mean === undefined) {
      this.mean = value;
      return;
    }
    const difference = value - this.mean;
    this.mean += this.alpha * difference;
    this.variance = (1 - this.alpha) * (this.variance + this.alpha * difference * difference);
  }
}

export class AdaptiveConcurrency implements ConcurrencyLimit {
  limit: number;
  private readonly pastRtt: Ewma;
  private windowEnd: number;
  private windowRttSum = 0;
  private windowResponses = 0;
  private reachedLimit = false;
  private backPressure = false;

  constructor(
    private readonly options: AdaptiveConcurrencyOptions,
    private readonly clock: Clock,
  ) {
    this.limit = Math.min(options.initial_concurrency, options.max_concurrency_limit);
    this.pastRtt = new Ewma(options.ewma_alpha);
    this.windowEnd = clock();
  }

  started(inFlight: number): void {
    if (inFlight >= this.limit) this.reachedLimit = true;
  }

  finished(rttMs: number, backPressure: boolean): void {
    if (backPressure) this.backPressure = true;
    this.windowRttSum += rttMs;
    this.windowResponses++;
    const now = this.clock();
    if (now < this.windowEnd) return;
    const currentRtt = this.windowRttSum / this.windowResponses;
    this.adjust(currentRtt);
    this.windowEnd = now + (this.pastRtt.mean ?? currentRtt);
    this.windowRttSum = 0;
    this.windowResponses = 0;
    this.reachedLimit = false;
    this.backPressure = false;
  }

  /** The end of a window whose responses took `currentRtt` on average. */
  private adjust(currentRtt: number): void {
    const { decrease_ratio, max_concurrency_limit, rtt_deviation_scale } = this.options;
    const pastRtt = this.pastRtt.mean ?? currentRtt;
    if (this.backPressure || currentRtt > pastRtt + rtt_deviation_scale * this.pastRtt.deviation) {
      this.limit = Math.max(1, Math.floor(this.limit * decrease_ratio));
    } else if (this.reachedLimit && currentRtt <= pastRtt && this.limit < max_concurrency_limit) {
      this.limit++;
    }
    if (!this.backPressure) this.pastRtt.update(currentRtt);
  }
}

/** Runs tasks with at most `limit.limit` at once; `start` resolves when the task has started. */
export class InFlight {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly limit: ConcurrencyLimit) {}

  async start(task: () => Promise<void>): Promise<void> {
    while (this.active >= this.limit.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    this.limit.started(this.active);
    const running: Promise<void> = task().finally(() => {
      this.active--;
      this.running.delete(running);
      // The limit may have grown: wake as many as now fit.
      for (let free = this.limit.limit - this.active; free > 0 && this.waiting.length > 0; free--)
        this.waiting.shift()!();
    });
    this.running.add(running);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
