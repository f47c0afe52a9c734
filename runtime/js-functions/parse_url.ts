import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { booleanArg, stringArg } from './support/args.js';

/** Rust `url`'s `port_or_known_default` table. */
const KNOWN_PORTS: Readonly<Record<string, bigint>> = { http: 80n, https: 443n, ws: 80n, wss: 443n, ftp: 21n };

/**
 * `parse_url(value, default_known_ports = false)`: the WHATWG URL parts as VRL's object (the Rust `url` crate
 * follows the same standard): scheme without `:`, percent-encoded credentials, host or null, port (a
 * scheme's default port is absent unless `default_known_ports`), path, query pairs (a later repeat wins)
 * and fragment or null.
 */
export const parse_url: JsFunction = ([value, defaultKnownPorts]) => {
  const text = stringArg(value!);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`unable to parse url: ${parseErrorText(text)}`);
  }
  const scheme = url.protocol.slice(0, -1);
  const query: Record<string, RemapValue> = Object.create(null);
  for (const [key, item] of url.searchParams) query[key] = item;
  let port: bigint | null = url.port === '' ? null : BigInt(url.port);
  if (port === null && booleanArg(defaultKnownPorts!, false)) port = KNOWN_PORTS[scheme] ?? null;
  return {
    scheme,
    username: url.username,
    password: url.password,
    host: url.hostname === '' ? null : url.hostname,
    port,
    path: url.pathname,
    query,
    fragment: url.hash === '' ? (text.includes('#') ? '' : null) : url.hash.slice(1),
  };
};

const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]?|[^/?#:]*)(?::([^/?#]*))?/;

/** Rust `url`'s `ParseError` text for the common failures (Node's URL only says "Invalid URL"). */
function parseErrorText(text: string): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return 'relative URL without a base';
  const authority = AUTHORITY.exec(text);
  if (!authority) return 'invalid domain character';
  const [, host, port] = authority;
  if (port !== undefined && (!/^\d*$/.test(port) || Number(port) > 65535)) return 'invalid port number';
  if (host!.startsWith('[')) return 'invalid IPv6 address';
  return host === '' ? 'empty host' : 'invalid domain character';
}
