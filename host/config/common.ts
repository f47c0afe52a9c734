// Option schemas shared by the global options and by components: proxy, TLS, cloud authentication,
// sink buffers, healthchecks, acknowledgements and regex patterns, with Vector's names and defaults.

import { isIP } from 'node:net';
import { z } from 'zod';
import { validateRegex } from '../../abi/regex.js';

/** A URI with at least a scheme and a host, as the spec requires of `healthcheck.uri` and proxies. */
const uri = z.string().superRefine((value, context) => {
  let host = '';
  try {
    host = new URL(value).host;
  } catch {
    // reported below
  }
  if (host === '')
    context.addIssue({ code: 'custom', message: `expected a URI with a scheme and a host, got "${value}"` });
});

/** A pattern in Rust's regex syntax (Vector's). */
export const rustRegex = z.string().superRefine((value, context) => {
  const problem = validateRegex(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

/** `host:port` with an IP address (Vector binds a socket address), e.g. `127.0.0.1:8686` or `[::1]:8686`. */
export const socketAddress = z.string().superRefine((value, context) => {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value);
  const ip = match?.[1] ?? match?.[2];
  const valid = match !== null && isIP(ip!) === (match[1] ? 6 : 4) && Number(match[3]) <= 65535;
  if (!valid)
    context.addIssue({
      code: 'custom',
      message: `expected an IP address and port such as "127.0.0.1:8686", got "${value}"`,
    });
});

/** A positive whole number. */
export const positiveInteger = z.number().int().positive();

/** A proxy's URI: HTTP proxies only (reached over http:// or https://), as Vector's proxy connector. */
const proxyUri = uri.refine((value) => !URL.canParse(value) || ['http:', 'https:'].includes(new URL(value).protocol), {
  message: 'expected an http:// or https:// proxy URI',
});

/** An IP address, or a CIDR block `address/prefix`, of a `no_proxy` pattern; undefined for a host name. */
export function ipBlock(pattern: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address, bits, ...rest] = pattern.split('/');
  const version = isIP(address!);
  if (version === 0 || rest.length > 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) return { address: address!, family };
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix <= (version === 4 ? 32 : 128) ? { address: address!, prefix, family } : undefined;
}

/** A `no_proxy` pattern; only a CIDR block can be malformed (a host name is any text). */
const noProxyPattern = z.string().refine((value) => !value.includes('/') || ipBlock(value) !== undefined, {
  message: 'expected a CIDR block such as "10.0.0.0/8"',
});

/** Proxy settings (global `proxy`, and `proxy` of sources and sinks): components/support/proxy.ts. */
export const proxySchema = z.strictObject({
  enabled: z.boolean().default(true),
  http: proxyUri.optional(),
  https: proxyUri.optional(),
  /** Exact host (or `host:port`), `.domain` (with subdomains), IP, CIDR block or `*`. */
  no_proxy: z.array(noProxyPattern).default([]),
});
export type ProxyOptions = z.output<typeof proxySchema>;

/** TLS options (C.11). */
export const tlsSchema = z.strictObject({
  alpn_protocols: z.array(z.string()).optional(),
  ca_file: z.string().optional(),
  crt_file: z.string().optional(),
  key_file: z.string().optional(),
  key_pass: z.string().optional(),
  server_name: z.string().optional(),
  verify_certificate: z.boolean().default(true),
  verify_hostname: z.boolean().default(true),
});

/** The fields of every `tls` table. The verify options have no schema default: it depends on the side
 * (Vector: on for outgoing connections, off for servers). */
const tlsFields = tlsSchema.extend({
  verify_certificate: z.boolean().optional(),
  verify_hostname: z.boolean().optional(),
});
/** `tls` where the protocol says whether TLS is used (the http sink: an https:// URI). */
export const tlsClientSchema = tlsFields;
export type TlsClientConfig = z.output<typeof tlsClientSchema>;

/** `tls` that is off unless `enabled` (Vector's `TlsEnableableConfig`): http_server, the socket sink. */
export const tlsEnableableSchema = tlsFields.extend({ enabled: z.boolean().default(false) });
export type TlsEnableableConfig = z.output<typeof tlsEnableableSchema>;

/** Cloud authentication (C.10). */
export const cloudAuthSchema = z.strictObject({
  access_key_id: z.string().optional(),
  secret_access_key: z.string().optional(),
  session_token: z.string().optional(),
  assume_role: z.string().optional(),
  external_id: z.string().optional(),
  credentials_file: z.string().optional(),
  profile: z.string().default('default'),
  region: z.string().optional(),
  session_name: z.string().optional(),
  load_timeout_secs: positiveInteger.optional(),
  imds: z
    .strictObject({
      max_attempts: positiveInteger.default(4),
      connect_timeout_seconds: z.number().positive().default(1),
      read_timeout_seconds: z.number().positive().default(1),
    })
    .prefault({}),
});

/** `acknowledgements`: a table with `enabled`, or a bare boolean as Vector also accepts. */
export const acknowledgementsSchema = z.union([
  z.boolean().transform((enabled) => ({ enabled })),
  z.strictObject({ enabled: z.boolean().optional() }),
]);
export type AcknowledgementsOptions = z.output<typeof acknowledgementsSchema>;

/** Smallest disk buffer Vector accepts: 256 MiB plus the size of one record header. */
const MIN_DISK_BUFFER_BYTES = 268435488;

const whenFull = z.enum(['block', 'drop_newest']).default('block');

/** A sink's `buffer` (E.1): memory (bounded in events, or in bytes) or disk (bounded in bytes). */
const bufferSchema = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('memory'),
      max_events: positiveInteger.optional(),
      max_size: positiveInteger.optional(),
      when_full: whenFull,
    })
    .superRefine((buffer, context) => {
      if (buffer.max_events !== undefined && buffer.max_size !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['max_size'],
          message: 'cannot be set together with "buffer.max_events"',
        });
      }
    })
    .transform((buffer) =>
      buffer.max_size === undefined ? { ...buffer, max_events: buffer.max_events ?? 500 } : buffer,
    ),
  z.strictObject({
    type: z.literal('disk'),
    max_size: z.number().int().min(MIN_DISK_BUFFER_BYTES),
    when_full: whenFull,
  }),
]);
export type BufferOptions = z.output<typeof bufferSchema>;

/** `buffer` as written: `type` may be left out (memory). */
export const sinkBufferSchema = z
  .preprocess(
    (value) =>
      typeof value === 'object' && value !== null && !('type' in value) ? { ...value, type: 'memory' } : value,
    bufferSchema,
  )
  .default({ type: 'memory', max_events: 500, when_full: 'block' });

/** A sink's `healthcheck` (E.4). */
export const healthcheckSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Seconds. */
  timeout: z.number().positive().default(10),
  uri: uri.optional(),
});
export type HealthcheckOptions = z.output<typeof healthcheckSchema>;

/** `graph`: extra DOT attributes of the component's node. */
export const graphSchema = z.strictObject({ node_attributes: z.record(z.string(), z.string()).default({}) });

/** `inputs` of transforms and sinks: upstream ids (`*` wildcards allowed), at least one. */
export const inputsSchema = z.array(z.string().min(1)).min(1);
