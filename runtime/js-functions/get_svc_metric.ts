// get_svc_metric(key, tags): the first internal metric named `key` whose tags match, or null.

import type { JsFunction } from '../imports.js';
import { matchingMetrics, metricObject } from './support/svc-metrics.js';

export const get_svc_metric: JsFunction = ([key, tags], context) => {
  const [first] = matchingMetrics(context, key!, tags!);
  return first === undefined ? null : metricObject(first);
};
