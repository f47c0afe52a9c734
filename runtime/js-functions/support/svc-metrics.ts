// What get_svc_metric, find_svc_metrics and aggregate_svc_metrics share: the metrics snapshot of the instance's services, filtered
// by name and tags (a `*` in a wanted tag value matches any run of characters), as Vector's metrics functions do.

import type { RemapValue } from '../../../abi/values.js';
import type { MetricSample } from '../../service-data.js';
import type { JsCallContext } from '../../imports.js';
import { floatResult, stringArg, valueKind } from './args.js';

/** The samples named `key` whose tags meet every wanted tag of `tags` (an object argument, null when absent). */
export function matchingMetrics(context: JsCallContext, key: RemapValue, tags: RemapValue): MetricSample[] {
  if (context.metrics === undefined)
    throw new Error("internal metrics are not available: only a pipeline's transforms have them");
  const name = stringArg(key);
  const wanted = Object.entries(objectArg(tags)).map(([tag, value]) => [tag, tagPattern(stringArg(value))] as const);
  return context
    .metrics()
    .filter(
      (sample) =>
        sample.name === name &&
        wanted.every(([tag, pattern]) => Object.hasOwn(sample.tags, tag) && pattern.test(sample.tags[tag]!)),
    );
}

/** The metric as remap sees it: name, tags, type, kind (all internal metrics are absolute), value. */
export function metricObject(sample: MetricSample): RemapValue {
  return {
    name: sample.name,
    tags: { ...sample.tags },
    type: sample.value.type,
    kind: 'absolute',
    value: floatOrNull(scalarValue(sample)),
  };
}

/** A counter's or gauge's value; null for a histogram, or NaN (VRL's floats are never NaN). */
export function scalarValue(sample: MetricSample): number | null {
  return sample.value.type === 'histogram' || Number.isNaN(sample.value.value) ? null : sample.value.value;
}

function objectArg(value: RemapValue): Record<string, RemapValue> {
  if (value === null) return {};
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return value as Record<string, RemapValue>;
  throw new Error(`expected object, got ${valueKind(value)}`);
}

function tagPattern(value: string): RegExp {
  const parts = value.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}

export const floatOrNull = (value: number | null): RemapValue => (value === null ? null : floatResult(value));
