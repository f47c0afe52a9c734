// Vector's `utilization` gauge of a transform or sink: the share of wall time it spent working rather than
// waiting for input, over windows of 5 s.

import type { Gauge } from '../telemetry/metrics.js';

const WINDOW_MS = 5000;

export class Utilization {
  private busyMs = 0;
  private windowStart: number;
  /** Work items under way (a transform can have several batches in flight): busy while there is one. */
  private working = 0;
  private busySince = 0;
  private readonly timer: NodeJS.Timeout;

  /** `now`: milliseconds on a monotonic clock (tests inject a fake one). */
  constructor(
    private readonly gauge: Gauge,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
    this.timer = setInterval(() => this.report(), WINDOW_MS);
    this.timer.unref();
  }

  /** A work item begins. */
  start(): void {
    if (this.working++ === 0) this.busySince = this.now();
  }

  /** A work item ends. */
  end(): void {
    if (--this.working === 0) this.busyMs += this.now() - this.busySince;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Sets the gauge for the window ending now (every WINDOW_MS) and starts the next one. */
  report(): void {
    const now = this.now();
    // Work under way counts in this window up to now, and in the next one from now.
    if (this.working > 0) {
      this.busyMs += now - this.busySince;
      this.busySince = now;
    }
    const elapsed = now - this.windowStart;
    if (elapsed > 0) this.gauge.set(Math.min(1, this.busyMs / elapsed));
    this.busyMs = 0;
    this.windowStart = now;
  }
}
