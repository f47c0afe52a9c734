// The internal metrics the remap programs of this thread read (get_svc_metric and its kin): a snapshot of the
// pipeline's registry, published every `metrics_storage_refresh_period` by the transform executor (posted to
// each transform worker). Without that option nothing is published: as in Vector, the functions then see an
// empty storage.

import type { MetricSample } from './metrics.js';

let latest: readonly MetricSample[] = [];

export function publishMetricsSnapshot(snapshot: readonly MetricSample[]): void {
  latest = snapshot;
}

export const threadMetricsSnapshot = (): readonly MetricSample[] => latest;

/** The registry's snapshot and how often to publish it. */
export interface MetricsFeed {
  snapshot(): readonly MetricSample[];
  periodMs: number;
}

/** Publishes `feed.snapshot()` through `publish` now and every period until the returned function is called. */
export function feedMetricsSnapshots(
  feed: MetricsFeed,
  publish: (snapshot: readonly MetricSample[]) => void,
): () => void {
  publish(feed.snapshot());
  const timer = setInterval(() => publish(feed.snapshot()), feed.periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
