// Vector's `utilization` gauge: the share of wall time a component spent working, averaged every 5 s.

import type { Gauge } from '../telemetry/metrics.js';

const WINDOW_MS = 5000;

export class Utilization {
  private busyMs = 0;
  private windowStart = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly gauge: Gauge) {
    this.timer = setInterval(() => this.report(), WINDOW_MS);
    this.timer.unref();
  }

  /** Work items under way (a transform can have two batches in flight): busy while there is at least one. */
  private working = 0;
  private busySince = 0;

  /** A work item begins. */
  start(): void {
    if (this.working++ === 0) this.busySince = performance.now();
  }

  /** A work item ends. */
  end(): void {
    if (--this.working === 0) this.busyMs += performance.now() - this.busySince;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private report(): void {
    const now = performance.now();
    this.gauge.set(Math.min(1, this.busyMs / Math.max(1, now - this.windowStart)));
    this.busyMs = 0;
    this.windowStart = now;
  }
}
