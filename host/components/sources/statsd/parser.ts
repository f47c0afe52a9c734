// StatsD (and DogStatsD) lines as Vector's statsd source parses them: `name:value|type[|@rate][|#tags]`.
// Counters (`c`) are incremental, divided by their sample rate; gauges (`g`) are absolute, or incremental
// with a `+`/`-` sign; sets (`s`) incremental; timers (`ms`, converted to seconds unless `convert_to` says
// milliseconds), histograms (`h`) and distributions (`d`, a summary) are one incremental sample whose rate is
// 1 / sample rate, truncated to an integer. Tags are `key:value`, or a bare `key`.

import type { Metric, MetricTags } from '../../support/metric.js';

export type ConversionUnit = 'seconds' | 'milliseconds';

/** A line Vector's parser rejects, with its reason. */
class StatsdParseError extends Error {}

/** A number as Rust's `f64::from_str` reads it: decimal with an optional exponent, `inf`, `infinity` or `nan`
 * in any case, no spaces, no hex. */
function parseFloat64(text: string): number {
  const match = /^([+-]?)(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(inf|infinity)|(nan))$/i.exec(text);
  if (match === null) throw new StatsdParseError(`invalid float literal: ${JSON.stringify(text)}`);
  if (match[4] !== undefined) return NaN;
  const magnitude = match[3] !== undefined ? Infinity : Number(match[2]);
  return match[1] === '-' ? -magnitude : magnitude;
}

/** A sample rate as an integer count (Rust's `as u32`: truncated, saturated, 0 for NaN). */
function sampleCount(rate: number): number {
  if (Number.isNaN(rate) || rate <= 0) return 0;
  return Math.min(Math.trunc(rate), 0xffffffff);
}

/** `sanitize`: `/` becomes `-`, runs of whitespace `_`, and what is not a letter, digit, `_`, `-` or `.` goes. */
function sanitizeKey(key: string): string {
  return key
    .replaceAll('/', '-')
    .replace(/\s+/gu, '_')
    .replace(/[^a-zA-Z_\-0-9.]/gu, '');
}

function parseSampling(part: string): number {
  if (part.length < 2) throw new StatsdParseError("expected non empty '@'-prefixed sampling component");
  const rate = parseFloat64(part.slice(1));
  if (rate < 0 || Object.is(rate, -0)) throw new StatsdParseError("sample rate can't be negative");
  // A rate of 0 counts as 1.
  return rate === 0 ? 1 : rate;
}

/** `#a:b,c,a:d`: a key given twice holds both values (once each, in order); a bare key has a null value. */
function parseTags(part: string): MetricTags {
  if (part.length < 2) throw new StatsdParseError("expected non empty '#'-prefixed tags component");
  const values = new Map<string, Array<string | null>>();
  for (const chunk of part.slice(1).split(',')) {
    const colon = chunk.indexOf(':');
    const [key, value] = colon < 0 ? [chunk, null] : [chunk.slice(0, colon), chunk.slice(colon + 1)];
    const list = values.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    values.set(key, list);
  }
  const tags: MetricTags = {};
  for (const [key, list] of values) tags[key] = list.length === 1 ? list[0]! : list;
  return tags;
}

export function parseStatsdLine(line: string, sanitize: boolean, convertTo: ConversionUnit): Metric {
  const colon = line.indexOf(':');
  if (colon < 0) throw new StatsdParseError("should be key and body with ':' separator");
  const key = line.slice(0, colon);
  const parts = line.slice(colon + 1).split('|');
  if (parts.length < 2) throw new StatsdParseError('body should have at least two pipe separated components');
  const name = sanitize ? sanitizeKey(key) : key;
  const [value, type] = parts as [string, string];
  const sampling = parts[2]?.startsWith('@') ? parts[2] : undefined;
  const sampleRate = sampling === undefined ? 1 : 1 / parseSampling(sampling);
  const tagsPart = sampling === undefined ? parts[2] : parts[3];
  const tags = tagsPart?.startsWith('#') ? parseTags(tagsPart) : undefined;
  const metric = (kind: Metric['kind'], metricValue: Metric['value']): Metric =>
    tags === undefined ? { name, kind, value: metricValue } : { name, tags, kind, value: metricValue };
  switch (type) {
    case 'c':
      return metric('incremental', { type: 'counter', value: parseFloat64(value) * sampleRate });
    case 'h':
    case 'ms':
    case 'd': {
      const number = parseFloat64(value);
      return metric('incremental', {
        type: 'distribution',
        samples: [
          { value: type === 'ms' && convertTo === 'seconds' ? number / 1000 : number, rate: sampleCount(sampleRate) },
        ],
        statistic: type === 'd' ? 'summary' : 'histogram',
      });
    }
    case 'g': {
      const first = value[0];
      if (first === undefined) throw new StatsdParseError('empty first body component');
      const digit = first >= '0' && first <= '9';
      const number = parseFloat64(digit ? value : value.slice(1));
      if (digit) return metric('absolute', { type: 'gauge', value: number });
      if (first !== '+' && first !== '-') throw new StatsdParseError('invalid gauge value prefix');
      return metric('incremental', { type: 'gauge', value: first === '-' ? -number : number });
    }
    case 's':
      return metric('incremental', { type: 'set', values: [value] });
    default:
      throw new StatsdParseError(`unknown metric type ${JSON.stringify(type)}`);
  }
}
