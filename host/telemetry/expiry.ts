// When an internal metric series expires (`expire_metrics_secs`, `expire_metrics_per_metric_set`): the first
// metric set whose name and labels match the series gives its expiry, else the global one. Negative: never.

import { RustRegex } from '../../abi/regex.js';
import type { GlobalOptions } from '../config/global.js';
import type { MetricExpiry, Tags } from './metrics.js';

type MetricSet = GlobalOptions['expire_metrics_per_metric_set'][number];
type Matcher = NonNullable<MetricSet['labels']>['matchers'][number];

export function metricExpiry(
  options: Pick<GlobalOptions, 'expire_metrics_secs' | 'expire_metrics_per_metric_set'>,
): MetricExpiry {
  const sets = options.expire_metrics_per_metric_set.map((set) => ({
    matches: metricSetMatcher(set),
    ms: expiryMs(set.expire_secs),
  }));
  const fallback = expiryMs(options.expire_metrics_secs);
  return (name, tags) => sets.find((set) => set.matches(name, tags))?.ms ?? fallback;
}

const expiryMs = (secs: number) => (secs < 0 ? Infinity : secs * 1000);

/** Name and labels as Vector matches them: regexes match anywhere in the value (Rust's `is_match`). */
function metricSetMatcher(set: MetricSet): (name: string, tags: Tags) => boolean {
  const name = set.name;
  const nameMatches =
    name === undefined
      ? () => true
      : name.type === 'exact'
        ? (value: string) => value === name.value
        : regexTest(name.pattern);
  const labels = set.labels;
  if (labels === undefined) return nameMatches;
  const matchers = labels.matchers.map(labelMatcher);
  const labelsMatch =
    labels.type === 'all'
      ? (tags: Tags) => matchers.every((matches) => matches(tags))
      : (tags: Tags) => matchers.some((matches) => matches(tags));
  return (metricName, tags) => nameMatches(metricName) && labelsMatch(tags);
}

function labelMatcher(matcher: Matcher): (tags: Tags) => boolean {
  const { key } = matcher;
  const valueMatches =
    matcher.type === 'exact' ? (value: string) => value === matcher.value : regexTest(matcher.value_pattern);
  return (tags) => Object.hasOwn(tags, key) && valueMatches(tags[key]!);
}

function regexTest(pattern: string): (value: string) => boolean {
  const regex = new RustRegex(pattern);
  return (value) => regex.test(value);
}
