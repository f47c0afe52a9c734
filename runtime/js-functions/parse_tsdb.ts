// parse_tsdb (parse_influxdb)(value): InfluxDB line protocol, each field of each line a gauge metric named
// `<measurement>_<field>` with the line's tags and time (nanoseconds). Integers and booleans (1/0) become
// floats; string fields and NaN cannot be gauges.

import type { JsFunction } from '../imports.js';
import { Timestamp, type RemapValue } from '../../abi/values.js';
import { stringArg } from './args.js';
import { floatValue } from './support/float.js';

/** Measurement, tag set and field set, each up to an unescaped separator. */
const MEASUREMENT = /((?:[^,\s\\]|\\.)+)/y;
const TAG = /,((?:[^,=\s\\]|\\.)+)=((?:[^,=\s\\]|\\.)+)/y;
const FIELD = /((?:[^,=\s\\]|\\.)+)=("(?:[^"\\]|\\.)*"|[^,\s]+)/y;
const TIMESTAMP = /\s+(-?\d+)\s*$/y;

const BOOLEANS: Readonly<Record<string, number>> = {
  t: 1, T: 1, true: 1, True: 1, TRUE: 1, f: 0, F: 0, false: 0, False: 0, FALSE: 0,
};

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');
const invalid = (line: string) => new Error(`unable to parse influxdb line protocol: invalid line: ${line}`);

export const parse_tsdb: JsFunction = ([value]) => {
  const metrics: RemapValue[] = [];
  for (const line of stringArg(value!).split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) metrics.push(...parseLine(trimmed));
  }
  return metrics;
};

function parseLine(line: string): RemapValue[] {
  let at = 0;
  const next = (re: RegExp) => {
    re.lastIndex = at;
    const m = re.exec(line);
    if (m) at = re.lastIndex;
    return m;
  };
  const measurement = next(MEASUREMENT);
  if (!measurement) throw invalid(line);
  const tags: Record<string, string> = Object.create(null);
  let tag;
  while ((tag = next(TAG))) tags[unescape(tag[1]!)] = unescape(tag[2]!);
  if (!next(/\s+/y)) throw invalid(line);
  const fields: Array<[string, number]> = [];
  do {
    const field = next(FIELD);
    if (!field) throw invalid(line);
    fields.push([unescape(field[1]!), fieldValue(field[2]!, line)]);
  } while (next(/,/y));
  const time = at < line.length ? next(TIMESTAMP) : null;
  if (at < line.length) throw invalid(line);
  const name = unescape(measurement[1]!);
  return fields.map(([field, gauge]) => {
    const metric: Record<string, RemapValue> = { name: `${name}_${field}` };
    if (Object.keys(tags).length > 0) metric.tags = { ...tags };
    if (time) metric.timestamp = new Timestamp(BigInt(time[1]!));
    metric.kind = 'absolute';
    metric.gauge = { value: floatValue(gauge) };
    return metric;
  });
}

function fieldValue(text: string, line: string): number {
  if (text.startsWith('"')) throw new Error('field set contains a field value of type `string`');
  if (text in BOOLEANS) return BOOLEANS[text]!;
  const number = /^[+-]?\d+[iu]$/.test(text) ? Number(text.slice(0, -1)) : Number(text);
  if (/^[+-]?nan$/i.test(text)) throw new Error('NaN field value');
  if (text === '' || Number.isNaN(number) || /^[+-]?inf/i.test(text)) throw invalid(line);
  return number;
}
