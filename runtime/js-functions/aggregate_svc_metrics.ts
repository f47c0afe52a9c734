// aggregate_svc_metrics(function, key, tags): sum, avg, max or min of the matching counters and gauges (histograms
// have no single value and are left out); null when none match.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { floatOrNull, matchingMetrics, scalarValue } from './support/svc-metrics.js';

const AGGREGATES: Readonly<Record<string, (values: number[]) => number>> = {
  sum: (values) => values.reduce((a, b) => a + b, 0),
  avg: (values) => values.reduce((a, b) => a + b, 0) / values.length,
  max: (values) => values.reduce((a, b) => Math.max(a, b)),
  min: (values) => values.reduce((a, b) => Math.min(a, b)),
};

export const aggregate_svc_metrics: JsFunction = ([fn, key, tags], context) => {
  const name = stringArg(fn!);
  const aggregate = Object.hasOwn(AGGREGATES, name) ? AGGREGATES[name]! : undefined;
  if (aggregate === undefined) throw new Error(`invalid enum variant: ${name}`);
  const values = matchingMetrics(context, key!, tags!)
    .map(scalarValue)
    .filter((value): value is number => value !== null);
  return values.length === 0 ? null : floatOrNull(aggregate(values));
};
