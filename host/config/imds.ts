// The last link of the cloud's default credential chain: the instance role's keys from the instance
// metadata service, version 2 (a session token from `PUT /latest/api/token`, the role's name, then its keys).
// Its address is the link-local one unless CLOUD_EC2_METADATA_SERVICE_ENDPOINT says otherwise, and
// CLOUD_EC2_METADATA_DISABLED=true skips it (the SDKs' variables under the spec's CLOUD_ prefix). It is never
// reached through a proxy: the service answers only the instance itself.

import type { CloudCredentials } from './sigv4.js';

export interface ImdsOptions {
  max_attempts: number;
  connect_timeout_seconds: number;
  read_timeout_seconds: number;
}

const DEFAULT_ENDPOINT = 'http://169.254.169.254';
const TOKEN_TTL_SECONDS = '21600';
const ROLES_PATH = '/latest/meta-data/iam/security-credentials/';

/** Whether the environment turned the service off. */
export function imdsDisabled(env: NodeJS.ProcessEnv): boolean {
  return env.CLOUD_EC2_METADATA_DISABLED?.toLowerCase() === 'true';
}

/** An answer that retrying will not change (4xx): the others (no connection, timeouts, 5xx) are retried. */
class FinalAnswer extends Error {}

export async function imdsCredentials(options: ImdsOptions, env: NodeJS.ProcessEnv): Promise<CloudCredentials> {
  const undici = await import('undici');
  const base = (env.CLOUD_EC2_METADATA_SERVICE_ENDPOINT || DEFAULT_ENDPOINT).replace(/\/+$/, '');
  const agent = new undici.Agent({
    connect: { timeout: options.connect_timeout_seconds * 1000 },
    headersTimeout: options.read_timeout_seconds * 1000,
    bodyTimeout: options.read_timeout_seconds * 1000,
  });
  const call = async (method: 'GET' | 'PUT', path: string, headers: Record<string, string>): Promise<string> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await undici.request(`${base}${path}`, { method, headers, dispatcher: agent });
        const text = await answer.body.text();
        if (answer.statusCode === 200) return text;
        const failure = `${method} ${path}: HTTP ${answer.statusCode}`;
        if (answer.statusCode < 500) throw new FinalAnswer(failure);
        if (attempt >= options.max_attempts) throw new Error(failure);
      } catch (error) {
        if (error instanceof FinalAnswer || attempt >= options.max_attempts) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
    }
  };
  try {
    const token = await call('PUT', '/latest/api/token', { 'x-aws-ec2-metadata-token-ttl-seconds': TOKEN_TTL_SECONDS });
    const withToken = { 'x-aws-ec2-metadata-token': token };
    const role = (await call('GET', ROLES_PATH, withToken)).split('\n')[0]?.trim();
    if (!role) throw new Error('the instance has no role');
    const document = JSON.parse(await call('GET', `${ROLES_PATH}${encodeURIComponent(role)}`, withToken)) as Record<
      string,
      unknown
    >;
    const { AccessKeyId: accessKeyId, SecretAccessKey: secretAccessKey, Token: sessionToken } = document;
    if (typeof accessKeyId !== 'string' || typeof secretAccessKey !== 'string')
      throw new Error(`the credentials of the role "${role}" have no AccessKeyId and SecretAccessKey`);
    return { accessKeyId, secretAccessKey, ...(typeof sessionToken === 'string' ? { sessionToken } : {}) };
  } catch (error) {
    const cause = (error as Error).cause;
    throw new Error(`${base}: ${(error as Error).message}${cause instanceof Error ? `: ${cause.message}` : ''}`);
  } finally {
    await agent.close();
  }
}
