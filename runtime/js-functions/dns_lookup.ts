// dns_lookup(value, qtype = "A", class = "IN", options = {}): the response to a DNS query sent by the
// instance's I/O service (runtime/io/dns.ts does the query). Options: `servers` (default: the system's
// resolvers), `timeout` in seconds (5) and `attempts` (2), as hickory-resolver's.

import { getServers } from 'node:dns';
import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { kindName, stringArg, valueKind } from './support/args.js';

const DEFAULT_TIMEOUT_SECONDS = 5;
const DEFAULT_ATTEMPTS = 2;

function positiveNumber(options: Record<string, RemapValue>, name: string, fallback: number): number {
  const value = options[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'bigint' && typeof value !== 'number') throw new Error(`${name} must be a number`);
  const n = Number(value);
  if (!(n > 0)) throw new Error(`${name} must be positive`);
  return n;
}

export const dns_lookup: JsFunction = ([value, qtype, qclass, options], context) => {
  const name = stringArg(value!);
  const settings = (options === null ? {} : options) as Record<string, RemapValue>;
  if (kindName(settings) !== 'object') throw new Error(`expected object, got ${valueKind(settings)}`);
  const servers =
    settings.servers === undefined || settings.servers === null
      ? getServers()
      : (() => {
          if (!Array.isArray(settings.servers)) throw new Error('servers must be an array of strings');
          return settings.servers.map(stringArg);
        })();
  const timeoutMs = positiveNumber(settings, 'timeout', DEFAULT_TIMEOUT_SECONDS) * 1000;
  const attempts = Math.floor(positiveNumber(settings, 'attempts', DEFAULT_ATTEMPTS));
  const reply = context.io.run(
    {
      op: 'dns',
      name,
      qtype: qtype === null ? 'A' : stringArg(qtype!),
      qclass: qclass === null ? 'IN' : stringArg(qclass!),
      servers,
      timeoutMs,
      attempts,
    },
    timeoutMs * attempts * Math.max(1, servers.length) + 1000,
  );
  if (!reply.ok) throw new Error(`unable to perform a lookup: ${reply.error}`);
  return reply.value;
};
