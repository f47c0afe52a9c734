// find_svc_metrics(key, tags): every internal metric named `key` whose tags match.

import type { JsFunction } from '../imports.js';
import { matchingMetrics, metricObject } from './support/svc-metrics.js';

export const find_svc_metrics: JsFunction = ([key, tags], context) =>
  matchingMetrics(context, key!, tags!).map(metricObject);
