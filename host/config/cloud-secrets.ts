// The `cloud_secrets_manager` secret backend: one `GetSecretValue` call to the cloud's Secrets Manager (its
// JSON 1.1 protocol, signed with signature version 4), whose `SecretString` is a JSON object of key → value.
// Credentials come from `auth` (keys, or a credentials file and profile), else from the CLOUD_* variables,
// else from the per-user credentials file, else from the instance metadata service (imds.ts), as the cloud's
// default chain looks for them; with
// `auth.assume_role`, those sign the token service's AssumeRole and the role's credentials sign the call.
// Both calls go through the proxy of the environment (HTTP_PROXY, ...): secrets load before the configuration
// is read, so its `proxy` cannot apply (Vector's backend reads the environment's too).

import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import type { z } from 'zod';
import { cloudAuthSchema, type tlsSchema } from './common.js';
import { imdsCredentials, imdsDisabled } from './imds.js';
import { signedHeaders, type CloudCredentials } from './sigv4.js';
import { environmentProxy, ProxiedDispatchers } from '../components/support/proxy.js';
import { clientTlsOptions } from '../components/support/tls.js';

type CloudAuth = z.output<typeof cloudAuthSchema>;
type TlsOptions = z.output<typeof tlsSchema>;

export interface CloudSecretsManagerOptions {
  secret_id: string;
  region?: string;
  endpoint?: string;
  auth?: CloudAuth;
  tls?: TlsOptions;
}

/** A failure of the backend, naming the option it comes from (`auth`, `region`, `secret_id`, `tls.ca_file`). */
export class CloudSecretError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

/** How long one call may take. The cloud's SDKs bound only the connection; a start-up that waits for ever on a
 * silent endpoint helps nobody. */
const REQUEST_TIMEOUT_MS = 30_000;

/** `[profile]` sections of an INI credentials file: name → key → value. */
function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*(?:profile\s+)?([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const equals = line.indexOf('=');
    if (current && equals > 0) current.set(line.slice(0, equals).trim().toLowerCase(), line.slice(equals + 1).trim());
  }
  return sections;
}

/** The credentials of `profile` in a credentials file. */
async function fileCredentials(path: string, profile: string, option: string): Promise<CloudCredentials> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CloudSecretError(option, `cannot read the credentials file "${path}": ${(error as Error).message}`);
  }
  const section = parseIni(text).get(profile);
  const accessKeyId = section?.get('aws_access_key_id');
  const secretAccessKey = section?.get('aws_secret_access_key');
  if (!accessKeyId || !secretAccessKey)
    throw new CloudSecretError(
      option,
      `the credentials file "${path}" has no profile "${profile}" with aws_access_key_id and aws_secret_access_key`,
    );
  const sessionToken = section!.get('aws_session_token');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** The text of the first `<name>` element of an XML answer. */
function xmlText(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

/** The role's temporary credentials from the token service's `AssumeRole`, signed with `base`. Its endpoint
 * is the regional one, or CLOUD_ENDPOINT_URL_STS (the cloud SDKs' variable, under the spec's CLOUD_ prefix). */
async function assumeRole(
  auth: CloudAuth & { assume_role: string },
  base: CloudCredentials,
  serviceRegion: string,
  env: NodeJS.ProcessEnv,
): Promise<CloudCredentials> {
  const region = auth.region ?? serviceRegion;
  const url = new URL(env.CLOUD_ENDPOINT_URL_STS || `https://sts.${region}.amazonaws.com/`);
  const body = new URLSearchParams({
    Action: 'AssumeRole',
    Version: '2011-06-15',
    RoleArn: auth.assume_role,
    RoleSessionName: auth.session_name ?? `svc-assume-role-${Date.now()}`,
    ...(auth.external_id ? { ExternalId: auth.external_id } : {}),
  }).toString();
  const headers = signedHeaders(
    { method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    base,
    region,
    'sts',
  );
  let answer: { status: number; text: string };
  try {
    answer = await post(url, headers, body, env, {
      timeoutMs: (auth.load_timeout_secs ?? REQUEST_TIMEOUT_MS / 1000) * 1000,
    });
  } catch (error) {
    throw new CloudSecretError('auth.assume_role', `AssumeRole on ${url.origin} failed: ${(error as Error).message}`);
  }
  const accessKeyId = xmlText(answer.text, 'AccessKeyId');
  const secretAccessKey = xmlText(answer.text, 'SecretAccessKey');
  const sessionToken = xmlText(answer.text, 'SessionToken');
  if (answer.status !== 200 || !accessKeyId || !secretAccessKey)
    throw new CloudSecretError(
      'auth.assume_role',
      `AssumeRole of "${auth.assume_role}" failed: HTTP ${answer.status} ${xmlText(answer.text, 'Code') ?? ''}: ${xmlText(answer.text, 'Message') ?? ''}`,
    );
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** The credentials to sign with (the backend's, the object storage sink's): `auth`'s role assumed with the
 * others when set. */
export async function cloudCredentials(
  auth: CloudAuth | undefined,
  region: string,
  env: NodeJS.ProcessEnv,
): Promise<CloudCredentials> {
  const base = await baseCredentials(auth, env);
  return auth?.assume_role === undefined
    ? base
    : assumeRole(auth as CloudAuth & { assume_role: string }, base, region, env);
}

/** Keys from `auth`, the CLOUD_* variables or a credentials file, in the order of the cloud's default chain. */
async function baseCredentials(auth: CloudAuth | undefined, env: NodeJS.ProcessEnv): Promise<CloudCredentials> {
  if (auth?.access_key_id !== undefined || auth?.secret_access_key !== undefined) {
    if (!auth.access_key_id || !auth.secret_access_key)
      throw new CloudSecretError('auth', 'auth.access_key_id and auth.secret_access_key must be set together');
    return {
      accessKeyId: auth.access_key_id,
      secretAccessKey: auth.secret_access_key,
      ...(auth.session_token ? { sessionToken: auth.session_token } : {}),
    };
  }
  if (auth?.credentials_file !== undefined)
    return fileCredentials(auth.credentials_file, auth.profile, 'auth.credentials_file');
  if (env.CLOUD_ACCESS_KEY_ID && env.CLOUD_SECRET_ACCESS_KEY)
    return {
      accessKeyId: env.CLOUD_ACCESS_KEY_ID,
      secretAccessKey: env.CLOUD_SECRET_ACCESS_KEY,
      ...(env.CLOUD_SESSION_TOKEN ? { sessionToken: env.CLOUD_SESSION_TOKEN } : {}),
    };
  const path = env.CLOUD_SHARED_CREDENTIALS_FILE || join(homedir(), '.aws', 'credentials');
  const profile = auth?.profile !== 'default' ? (auth?.profile ?? 'default') : env.CLOUD_PROFILE || 'default';
  let missing = '';
  try {
    return await fileCredentials(path, profile, 'auth');
  } catch (error) {
    missing = (error as Error).message;
  }
  if (!imdsDisabled(env)) {
    try {
      return await imdsCredentials((auth ?? cloudAuthSchema.parse({})).imds, env);
    } catch (error) {
      missing += `; the instance metadata service gave none (${(error as Error).message})`;
    }
  }
  throw new CloudSecretError(
    'auth',
    `no credentials: set auth.access_key_id and auth.secret_access_key, or CLOUD_ACCESS_KEY_ID and ` +
      `CLOUD_SECRET_ACCESS_KEY, or a credentials file, or run on an instance with a role (${missing})`,
  );
}

/** Node's client TLS options for `tls` (support/tls.ts, as the sinks use it), a problem named by its option. */
async function clientTls(tls: TlsOptions | undefined): Promise<ConnectionOptions> {
  try {
    return await clientTlsOptions(tls);
  } catch (error) {
    const [, option, message] = /^(tls\.\w+): (.*)$/s.exec((error as Error).message) ?? [];
    if (option === undefined) throw error;
    throw new CloudSecretError(option, message!);
  }
}

/** POSTs `body` (through the proxy of `env`, an https:// `url` reached with `tls`) and resolves with the
 * status and text of the answer. */
async function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  env: NodeJS.ProcessEnv,
  { tls, timeoutMs = REQUEST_TIMEOUT_MS }: { tls?: ConnectionOptions; timeoutMs?: number } = {},
): Promise<{ status: number; text: string }> {
  const undici = await import('undici');
  const dispatchers = new ProxiedDispatchers(undici, environmentProxy(env), { tls });
  try {
    const response = await undici.request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: dispatchers.for(url),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.statusCode, text: await response.body.text() };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs / 1000} s`);
    const cause = (error as Error).cause;
    throw cause instanceof Error ? new Error(`${(error as Error).message}: ${cause.message}`) : error;
  } finally {
    await dispatchers.close();
  }
}

/** The secret's key → value object, fetched with `GetSecretValue`. */
export async function getCloudSecret(
  options: CloudSecretsManagerOptions,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, unknown>> {
  const region = options.region ?? env.CLOUD_DEFAULT_REGION ?? (options.endpoint ? 'us-east-1' : undefined);
  if (region === undefined)
    throw new CloudSecretError('region', 'no region: set region (or endpoint), or CLOUD_DEFAULT_REGION');
  let url: URL;
  try {
    url = new URL(options.endpoint ?? `https://secretsmanager.${region}.amazonaws.com/`);
  } catch {
    throw new CloudSecretError('endpoint', `not a URL: "${options.endpoint}"`);
  }
  const signer = await cloudCredentials(options.auth, region, env);
  const tls = await clientTls(options.tls);
  const body = JSON.stringify({ SecretId: options.secret_id });
  const headers = signedHeaders(
    {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'secretsmanager.GetSecretValue' },
      body,
    },
    signer,
    region,
    'secretsmanager',
  );
  let answer: { status: number; text: string };
  try {
    answer = await post(url, headers, body, env, { tls });
  } catch (error) {
    throw new CloudSecretError('endpoint', `GetSecretValue on ${url.origin} failed: ${(error as Error).message}`);
  }
  let document: Record<string, unknown> | undefined;
  try {
    document = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    // reported below with the status
  }
  if (answer.status !== 200) {
    const type = String(document?.__type ?? '').replace(/^.*#/, '');
    const message = document?.Message ?? document?.message ?? answer.text.slice(0, 200);
    throw new CloudSecretError(
      'secret_id',
      `GetSecretValue of "${options.secret_id}" failed: HTTP ${answer.status} ${type}: ${message}`,
    );
  }
  const text = document?.SecretString;
  if (typeof text !== 'string')
    throw new CloudSecretError('secret_id', `the secret "${options.secret_id}" has no SecretString`);
  let secret: unknown;
  try {
    secret = JSON.parse(text);
  } catch {
    secret = undefined;
  }
  if (typeof secret !== 'object' || secret === null || Array.isArray(secret))
    throw new CloudSecretError(
      'secret_id',
      `the SecretString of "${options.secret_id}" is not a JSON object of key → value`,
    );
  return secret as Record<string, unknown>;
}
