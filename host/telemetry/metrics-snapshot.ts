// The internal metrics the remap programs of this thread read (get_svc_metric and its kin): a snapshot of the
// pipeline's registry, published every second by the transform executor (posted to each transform worker).

import type { MetricSample } from './metrics.js';

export const METRICS_SNAPSHOT_INTERVAL_MS = 1000;

let latest: readonly MetricSample[] = [];

export function publishMetricsSnapshot(snapshot: readonly MetricSample[]): void {
  latest = snapshot;
}

export const threadMetricsSnapshot = (): readonly MetricSample[] => latest;

/** Publishes `snapshot()` through `publish` now and every second until the returned function is called. */
export function feedMetricsSnapshots(snapshot: () => readonly MetricSample[], publish: (snapshot: readonly MetricSample[]) => void): () => void {
  publish(snapshot());
  const timer = setInterval(() => publish(snapshot()), METRICS_SNAPSHOT_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
