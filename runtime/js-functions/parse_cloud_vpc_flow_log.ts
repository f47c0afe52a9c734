// parse_cloud_vpc_flow_log (parse_aws_vpc_flow_log)(value, format): space-separated values named by the
// format's field list (default: the version 2 fields); `-` is null, the numeric fields are integers.

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';

const DEFAULT_FORMAT =
  'version account_id interface_id srcaddr dstaddr srcport dstport protocol packets bytes start end action log_status';

const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  'version',
  'srcport',
  'dstport',
  'protocol',
  'packets',
  'bytes',
  'start',
  'end',
  'tcp_flags',
  'traffic_path',
  'encryption_status',
]);

export const parse_cloud_vpc_flow_log: JsFunction = ([value, format]) => {
  const values = stringArg(value!).split(' ');
  const keys = (format === null || format === undefined ? DEFAULT_FORMAT : stringArg(format)).split(' ');
  const log: Record<string, RemapValue> = Object.create(null);
  for (let i = 0; i < Math.max(keys.length, values.length); i++) {
    const key = keys[i];
    const text = values[i];
    if (key === undefined) throw new Error(`too many values, not parsed: \`${text}\``);
    if (text === undefined) throw new Error(`key without value: \`${key}\``);
    log[key] = text === '-' ? null : INTEGER_FIELDS.has(key) ? integer(key, text) : text;
  }
  return log;
};

function integer(key: string, text: string): bigint {
  const value = /^[+-]?\d+$/.test(text) ? BigInt(text) : undefined;
  if (value === undefined || BigInt.asIntN(64, value) !== value) {
    throw new Error(`failed to parse value as i64 (key: \`${key}\`): \`${text}\``);
  }
  return value;
}
