// `tls` options (spec 2 C.11, Vector's names and defaults) turned into Node's `tls` options, for the servers
// of sources (http_server, socket, syslog) and the connections of sinks (http, socket). Certificates and keys
// are read and parsed once, when the component is built, so `svc validate` reports a missing, unreadable or
// malformed file as an error naming the option. Each of `ca_file`, `crt_file`, `key_file` is a path or an
// inline PEM string; certificates may be PEM or DER, keys PEM or DER (PKCS#8), and a `crt_file` without
// `key_file` is a PKCS#12 archive unlocked with `key_pass`.

import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createSecureContext,
  type ConnectionOptions,
  type SecureContextOptions,
  type Server as TlsServer,
  type TlsOptions,
} from 'node:tls';
import { z } from 'zod';
import { tlsEnableableSchema, type TlsClientConfig, type TlsEnableableConfig } from '../../config/common.js';
import type { Logger } from '../../log.js';
import type { ComponentEnv } from '../component.js';

export {
  tlsClientSchema,
  tlsEnableableSchema,
  type TlsClientConfig,
  type TlsEnableableConfig,
} from '../../config/common.js';

/** `tls` of the socket and syslog sources: `client_metadata_key` stamps events with the client's certificate. */
export const tlsSourceSchema = tlsEnableableSchema.extend({ client_metadata_key: z.string().optional() });
export type TlsSourceConfig = z.output<typeof tlsSourceSchema>;

const PEM_MARKER = '-----BEGIN ';
const isInlinePem = (value: string) => value.includes(PEM_MARKER);

/** The paths among the options (not inline PEM) of TLS in use, for a definition's `files`: a reload rebuilds
 * the component when a certificate changed. */
export function tlsFiles(config: (TlsClientConfig & { enabled?: boolean }) | undefined): string[] {
  if (config?.enabled === false) return [];
  return [config?.ca_file, config?.crt_file, config?.key_file].filter(
    (value): value is string => value !== undefined && !isInlinePem(value),
  );
}

/** A problem with one option: the message starts with it, e.g. `tls.crt_file: ...`. */
function optionError(option: string, message: string): Error {
  return new Error(`tls.${option}: ${message}`);
}

/** The bytes of an option's value (a file, or the inline PEM itself), and how to name it in errors. */
async function material(option: string, value: string): Promise<{ bytes: Buffer; name: string }> {
  if (isInlinePem(value)) return { bytes: Buffer.from(value), name: 'the inline PEM' };
  try {
    return { bytes: await readFile(value), name: `"${value}"` };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : message;
    throw optionError(option, `cannot read "${value}": ${why}`);
  }
}

/** Certificates of a PEM bundle (each block), or the one certificate of a DER file; undefined when `bytes`
 * holds none. */
function parseCertificates(bytes: Buffer): X509Certificate[] | undefined {
  try {
    const text = bytes.toString('latin1');
    if (!text.includes(PEM_MARKER)) return [new X509Certificate(bytes)];
    const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    return blocks.length === 0 ? undefined : blocks.map((block) => new X509Certificate(block));
  } catch {
    return undefined;
  }
}

async function loadCertificates(option: string, value: string): Promise<X509Certificate[]> {
  const { bytes, name } = await material(option, value);
  const certificates = parseCertificates(bytes);
  if (certificates === undefined) throw optionError(option, `${name} is not a PEM or DER X.509 certificate`);
  return certificates;
}

async function loadKey(value: string, passphrase: string | undefined): Promise<KeyObject> {
  const { bytes, name } = await material('key_file', value);
  const pem = bytes.includes(PEM_MARKER);
  try {
    return createPrivateKey(
      pem ? { key: bytes, passphrase } : { key: bytes, format: 'der', type: 'pkcs8', passphrase: passphrase ?? '' },
    );
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    // OpenSSL cancels reading an encrypted PEM key without a passphrase; Node itself refuses a DER one.
    if (code === 'ERR_MISSING_PASSPHRASE' || code === 'ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED')
      throw optionError('key_pass', `${name} of tls.key_file is encrypted`);
    if (passphrase !== undefined && /bad decrypt|unable to decrypt/i.test((error as Error).message))
      throw optionError('key_pass', `does not decrypt ${name} of tls.key_file`);
    throw optionError('key_file', `${name} is not a PEM or DER (PKCS#8) private key`);
  }
}

/** `Promise.all` whose error is the first failed option's in their order, not the first to fail: the files
 * are read at once, and which read ends first varies. */
async function allInOrder<T extends readonly unknown[]>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

/** The identity (`crt_file` with `key_file`, or a PKCS#12 `crt_file`) as Node's options. */
async function loadIdentity(config: TlsClientConfig): Promise<SecureContextOptions> {
  const { crt_file: crtFile, key_file: keyFile, key_pass: passphrase } = config;
  if (crtFile === undefined) {
    if (keyFile !== undefined) throw optionError('key_file', 'needs tls.crt_file, the certificate of the key');
    return {};
  }
  if (keyFile === undefined) {
    const { bytes, name } = await material('crt_file', crtFile);
    if (parseCertificates(bytes) !== undefined)
      throw optionError('crt_file', `${name} is a certificate: set tls.key_file too (only PKCS#12 holds its key)`);
    const pkcs12 = { pfx: bytes, passphrase: passphrase ?? '' };
    try {
      createSecureContext(pkcs12);
    } catch (error) {
      const reason = /mac verify/i.test((error as Error).message) ? 'tls.key_pass does not unlock it' : 'not valid';
      throw optionError('crt_file', `${name} is neither a PEM or DER certificate nor a PKCS#12 archive (${reason})`);
    }
    return pkcs12;
  }
  const [chain, key] = await allInOrder([loadCertificates('crt_file', crtFile), loadKey(keyFile, passphrase)] as const);
  if (!chain[0]!.checkPrivateKey(key))
    throw optionError('key_file', 'is not the key of the certificate in tls.crt_file');
  return {
    cert: chain.map((certificate) => certificate.toString()).join(''),
    key: key.export({ type: 'pkcs8', format: 'pem' }),
  };
}

/** Trusted authorities (`ca_file`, which replaces the system's as in Vector) and the identity. */
async function secureContextOptions(config: TlsClientConfig): Promise<SecureContextOptions> {
  const [authorities, identity] = await allInOrder([
    config.ca_file === undefined ? undefined : loadCertificates('ca_file', config.ca_file),
    loadIdentity(config),
  ] as const);
  return {
    ...identity,
    ...(authorities && { ca: authorities.map((certificate) => certificate.toString()) }),
    ...(config.alpn_protocols && { ALPNProtocols: config.alpn_protocols }),
  };
}

/**
 * Options of a TLS server, or undefined when `tls` is absent or not `enabled` (plain connections, as in
 * Vector). A server needs an identity; `verify_certificate` (off by default for servers) requires a client
 * certificate issued by `ca_file` (or a system authority without it): mutual TLS.
 */
export async function serverTlsOptions(config: TlsEnableableConfig | undefined): Promise<TlsOptions | undefined> {
  if (!config?.enabled) return undefined;
  if (config.crt_file === undefined)
    throw optionError('crt_file', 'a server with TLS enabled needs a certificate (tls.crt_file and tls.key_file)');
  const verify = config.verify_certificate ?? false;
  return { ...(await secureContextOptions(config)), requestCert: verify, rejectUnauthorized: verify };
}

/**
 * Options of an outgoing TLS connection: `verify_certificate` and `verify_hostname` are on by default (turning
 * one off is logged as a warning, as Vector does, given a `log`: a secret backend has none); `server_name` is the SNI name, and the name the
 * certificate must carry.
 */
export async function clientTlsOptions(config: TlsClientConfig | undefined, log?: Logger): Promise<ConnectionOptions> {
  if (config === undefined) return {};
  for (const option of ['verify_certificate', 'verify_hostname'] as const)
    if (config[option] === false)
      log?.warn(`The \`${option}\` option is DISABLED, this may lead to security vulnerabilities.`);
  return {
    ...(await secureContextOptions(config)),
    rejectUnauthorized: config.verify_certificate ?? true,
    ...(config.server_name !== undefined && { servername: config.server_name }),
    ...((config.verify_hostname ?? true) ? {} : { checkServerIdentity: () => undefined }),
  };
}

/** A peer certificate's subject as Vector writes it under `client_metadata_key`: `C=..,ST=..,L=..,O=..,OU=..,CN=..`. */
export function certificateSubject(subject: Record<string, string | string[] | undefined>): string {
  return ['C', 'ST', 'L', 'O', 'OU', 'CN']
    .flatMap((field) => [subject[field] ?? []].flat().map((value) => `${field}=${value}`))
    .join(',');
}

/** Logs and counts each failed handshake of a server's clients (no certificate or a refused one, or not
 * speaking TLS): the connection is closed. */
export function reportHandshakeFailures(server: TlsServer, env: Pick<ComponentEnv, 'log' | 'telemetry'>): void {
  server.on('tlsClientError', (error, socket) => {
    env.telemetry.error('connection_failed', 'receiving');
    env.log.error(`TLS handshake with ${socket.remoteAddress ?? 'a client'} failed: ${error.message}`, {
      error_type: 'connection_failed',
      stage: 'receiving',
      internal_log_rate_key: 'tls_handshake_failed',
    });
  });
}
