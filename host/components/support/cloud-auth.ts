// Requests to the cloud's services signed as its SDKs sign them (signature version 4, host/config/sigv4.ts),
// with the credentials of its default chain (`auth`: keys, a credentials file and profile, the CLOUD_*
// variables, the instance's role, an assumed role: host/config/cloud-secrets.ts). Credentials are resolved
// again every few minutes, as those of a role or of the instance expire; a failed refresh keeps the previous
// ones until the next try.

import { z } from 'zod';
import { cloudAuthSchema } from '../../config/common.js';
import { CloudSecretError, cloudCredentials } from '../../config/cloud-secrets.js';
import { type CloudCredentials, sha256Hex, signedHeaders } from '../../config/sigv4.js';
import type { Logger } from '../../log.js';
import type { HttpRequest } from './http-batch-sink.js';

export type CloudAuthOptions = z.output<typeof cloudAuthSchema>;

/** How long resolved credentials are used before they are resolved again. */
const REFRESH_MS = 5 * 60_000;

/** The service's region: the option (named `option` in the error), else CLOUD_DEFAULT_REGION (the SDKs'
 * variable under the spec's prefix). */
export function cloudRegion(region: string | undefined, env: NodeJS.ProcessEnv, option = 'region'): string {
  const found = region ?? env.CLOUD_DEFAULT_REGION;
  if (!found)
    throw new Error(
      `${option}: could not determine the region from the configuration or the environment (set ${option})`,
    );
  return found;
}

/** Vector's `auth.strategy: aws` of an HTTP sink: the credentials (`auth`, with the region signed for) and the
 * service signed for. */
export const awsHttpAuthSchema = z.strictObject({
  strategy: z.literal('aws'),
  auth: cloudAuthSchema.prefault({}),
  service: z.string(),
});

/** The signer of an HTTP sink's `auth.strategy: aws`. */
export function httpAuthSigner(
  auth: z.output<typeof awsHttpAuthSchema>,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CloudSigner> {
  const region = cloudRegion(auth.auth.region, env, 'auth.auth.region');
  return CloudSigner.build(auth.auth, region, auth.service, log, env);
}

export class CloudSigner {
  private resolvedAt = Date.now();
  private refreshing: Promise<void> | undefined;

  private constructor(
    private credentials: CloudCredentials,
    private readonly auth: CloudAuthOptions,
    readonly region: string,
    private readonly service: string,
    private readonly log: Logger,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** A signer with the credentials `auth` resolves to now; throws naming the option when there are none. */
  static async build(
    auth: CloudAuthOptions,
    region: string,
    service: string,
    log: Logger,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<CloudSigner> {
    return new CloudSigner(await resolve(auth, region, env), auth, region, service, log, env);
  }

  /** The request with the signature's headers; `payloadHash`: with the `x-amz-content-sha256` header that
   * object storage requires. */
  async sign(request: HttpRequest, { payloadHash = false } = {}): Promise<HttpRequest> {
    if (Date.now() - this.resolvedAt >= REFRESH_MS) await (this.refreshing ??= this.refresh());
    const headers = payloadHash
      ? { ...request.headers, 'x-amz-content-sha256': sha256Hex(request.body) }
      : request.headers;
    const url = new URL(request.uri);
    const signed = signedHeaders(
      { method: request.method, url, headers, body: request.body },
      this.credentials,
      this.region,
      this.service,
    );
    return { ...request, headers: signed };
  }

  private async refresh(): Promise<void> {
    try {
      this.credentials = await resolve(this.auth, this.region, this.env);
    } catch (error) {
      this.log.warn('Failed to refresh the cloud credentials; signing with the previous ones.', {
        error: (error as Error).message,
        internal_log_rate_key: 'credentials_refresh',
      });
    } finally {
      this.resolvedAt = Date.now();
      this.refreshing = undefined;
    }
  }
}

async function resolve(auth: CloudAuthOptions, region: string, env: NodeJS.ProcessEnv): Promise<CloudCredentials> {
  try {
    return await cloudCredentials(auth, region, env);
  } catch (error) {
    if (error instanceof CloudSecretError) throw new Error(`${error.option}: ${error.message}`);
    throw error;
  }
}
