// The `aws_s3` sink, as Vector's: events are grouped by the object key prefix they render (`key_prefix`, a
// template; with `ssekms_key_id` templated, by both), batched per prefix (`batch.*`: 10 MB, 300 s), and each
// batch is stored as one object by PutObject: its key the prefix, the time of sending (`filename_time_format`),
// a UUID (`filename_append_uuid`) and the extension (`filename_extension`, else the compression's), its body
// the events encoded and framed (newline-delimited for text codecs, a JSON array for `json`) and compressed
// (gzip by default), with the object options as headers (ACL, grants, storage class, encryption, tags,
// Content-Type `text/x-log` unless `content_type`, Content-MD5). Requests are signed (signature version 4,
// service `s3`) with the credentials of `auth` or the cloud's default chain, each attempt anew.
//
// Retries follow Vector's logic for the cloud's services: 5xx, 429, an `x-amz-retry-after` header, a 4xx whose
// body names RequestTimeout, RequestExpired or ThrottlingException, timeouts and connection errors; with
// `retry_strategy` (none, all, or status codes added). Concurrency, rate limits, TLS and proxies are those of
// every HTTP sink (support/http-batch-sink.ts). The healthcheck is HeadBucket.

import { createHash, randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { strftimeFormatter } from '../../../abi/strftime.js';
import { isTimeZone, namedTimeZone, type TimeZone } from '../../../runtime/index.js';
import { cloudAuthSchema } from '../../config/common.js';
import { encodeRfc3986 } from '../../config/sigv4.js';
import { templateOption } from '../../config/template.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { CloudSigner, cloudRegion } from '../support/cloud-auth.js';
import { type Compression, compress, CONTENT_ENCODING } from '../support/compression.js';
import { batchPayload, encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate, groupByTemplates } from '../support/event-template.js';
import {
  batchSchema,
  commonSettings,
  HttpBatchSink,
  type HttpRequest,
  httpClient,
  type HttpClient,
  httpTlsSchema,
  httpUri,
  type Outcome,
  requestSchema,
  retryStrategySchema,
} from '../support/http-batch-sink.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import { tlsFiles } from '../support/tls.js';

const ACLS = [
  'private',
  'public-read',
  'public-read-write',
  'aws-exec-read',
  'authenticated-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
  'log-delivery-write',
] as const;

const STORAGE_CLASSES = [
  'STANDARD',
  'REDUCED_REDUNDANCY',
  'INTELLIGENT_TIERING',
  'STANDARD_IA',
  'EXPRESS_ONEZONE',
  'ONEZONE_IA',
  'GLACIER',
  'GLACIER_IR',
  'DEEP_ARCHIVE',
] as const;

/** Vector's file extension of each compression. */
const EXTENSIONS: Record<Compression, string> = {
  none: 'log',
  gzip: 'log.gz',
  zlib: 'log.zz',
  zstd: 'log.zst',
  snappy: 'log.snappy',
};

function validStrftime(format: string): boolean {
  try {
    strftimeFormatter(format);
    return true;
  } catch {
    return false;
  }
}

const options = z.strictObject({
  bucket: z
    .string()
    .min(1)
    .refine((name) => !name.startsWith('s3://') && !name.endsWith('/'), {
      message: 'the bucket name, without a leading s3:// or a trailing /',
    }),
  region: z.string().optional(),
  endpoint: httpUri.optional(),
  force_path_style: z.boolean().default(true),
  key_prefix: templateOption().default('date=%F'),
  filename_time_format: z.string().default('%s').refine(validStrftime, { message: 'not a strftime format' }),
  filename_append_uuid: z.boolean().default(true),
  filename_extension: z.string().optional(),
  timezone: z.string().refine(isTimeZone, { message: 'unknown time zone' }).optional(),
  compression: z.enum(['none', 'gzip', 'zlib', 'zstd', 'snappy']).default('gzip'),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
  acl: z.enum(ACLS).optional(),
  grant_full_control: z.string().optional(),
  grant_read: z.string().optional(),
  grant_read_acp: z.string().optional(),
  grant_write_acp: z.string().optional(),
  content_type: z.string().optional(),
  content_encoding: z.string().optional(),
  storage_class: z.enum(STORAGE_CLASSES).default('STANDARD'),
  server_side_encryption: z.enum(['AES256', 'aws:kms']).optional(),
  ssekms_key_id: templateOption().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  auth: cloudAuthSchema.prefault({}),
  batch: batchSchema({ max_bytes: 10_000_000, timeout_secs: 300 }),
  request: requestSchema,
  retry_strategy: retryStrategySchema,
  tls: httpTlsSchema.optional(),
});

type S3Options = z.infer<typeof options>;

/** What a 4xx body names when the cloud's services ask for a retry (Vector's `is_retriable_error`). */
const RETRIABLE_CODES = /RequestTimeout|RequestExpired|ThrottlingException/;

/** The text of the first `<name>` element of an error document. */
function xmlText(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

/** Where the bucket and its objects are: the endpoint (or the region's: `s3.<region>.amazonaws.com`, `.com.cn`
 * in the China regions), the bucket in the path (`force_path_style`) or in the host name. */
export class BucketAddress {
  private readonly base: URL;

  constructor(
    endpoint: string | undefined,
    region: string,
    private readonly bucket: string,
    private readonly pathStyle: boolean,
  ) {
    this.base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`);
  }

  /** The bucket's URI; with `key`, the object's (each segment of the key encoded). */
  uri(key?: string): string {
    const path = this.base.pathname.replace(/\/+$/, '');
    const object = key === undefined ? '' : `/${key.split('/').map(encodeRfc3986).join('/')}`;
    if (this.pathStyle) return `${this.base.origin}${path}/${encodeRfc3986(this.bucket)}${object}`;
    return `${this.base.protocol}//${this.bucket}.${this.base.host}${path}${object || '/'}`;
  }
}

class S3Sink extends HttpBatchSink {
  private readonly filenameTime: (nanos: bigint, zone: TimeZone) => string;
  /** Headers of every PutObject: the object options. */
  private readonly objectHeaders: Record<string, string>;

  constructor(
    private readonly options: S3Options,
    private readonly encoder: SinkEncoder,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly address: BucketAddress,
    private readonly signer: CloudSigner,
    private readonly templates: { keyPrefix: EventTemplate; ssekmsKeyId: EventTemplate | undefined },
    private readonly zone: TimeZone,
  ) {
    super(env, client, timer, {
      ...commonSettings(options, client),
      retryFailedRequests: options.retry_strategy.type !== 'none',
      partitioned: true,
    });
    this.filenameTime = strftimeFormatter(options.filename_time_format);
    this.objectHeaders = this.headersOfObjects();
  }

  /** Partitions by the rendered key prefix and SSE-KMS key id: a JSON array of the two. */
  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    const { keyPrefix, ssekmsKeyId } = this.templates;
    const templates = ssekmsKeyId === undefined ? [keyPrefix] : [keyPrefix, ssekmsKeyId];
    const fixed = templates.map((template) => template.fixedText);
    if (fixed.every((text) => text !== undefined)) return new Map([[JSON.stringify(fixed), batch]]);
    return groupByTemplates(templates, batch, this.env, (texts) => JSON.stringify(texts));
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const [prefix, ssekmsKeyId] = JSON.parse(key) as [string, string?];
    const encoded = Buffer.concat(parts.map((part) => this.encoder.encode(part)));
    if (encoded.length === 0) return undefined;
    const body = await compress(this.options.compression, batchPayload(encoded, this.encoder.options));
    const headers: Record<string, string> = {
      ...this.objectHeaders,
      'content-md5': createHash('md5').update(body).digest('base64'),
    };
    if (ssekmsKeyId !== undefined) headers['x-amz-server-side-encryption-aws-kms-key-id'] = ssekmsKeyId;
    return { uri: this.address.uri(this.objectKey(prefix)), method: 'PUT', headers, body };
  }

  /** Vector's key: the prefix, the time now, a UUID, the extension. */
  private objectKey(prefix: string): string {
    const nanos = BigInt(Date.now()) * 1_000_000n;
    const time = this.filenameTime(nanos, this.zone);
    const filename = this.options.filename_append_uuid ? `${time}-${randomUUID()}` : time;
    const extension = this.options.filename_extension ?? EXTENSIONS[this.options.compression];
    return extension === '' ? `${prefix}${filename}` : `${prefix}${filename}.${extension}`;
  }

  private headersOfObjects(): Record<string, string> {
    const { options } = this;
    const headers: Record<string, string> = {
      'content-type': options.content_type ?? 'text/x-log',
      'x-amz-storage-class': options.storage_class,
    };
    const contentEncoding =
      options.content_encoding ?? (options.compression === 'none' ? undefined : CONTENT_ENCODING[options.compression]);
    const optional: Record<string, string | undefined> = {
      'content-encoding': contentEncoding,
      'x-amz-acl': options.acl,
      'x-amz-grant-full-control': options.grant_full_control,
      'x-amz-grant-read': options.grant_read,
      'x-amz-grant-read-acp': options.grant_read_acp,
      'x-amz-grant-write-acp': options.grant_write_acp,
      'x-amz-server-side-encryption': options.server_side_encryption,
      'x-amz-tagging':
        options.tags === undefined
          ? undefined
          : new URLSearchParams(
              Object.entries(options.tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
            ).toString(),
    };
    for (const [name, value] of Object.entries(optional)) if (value !== undefined) headers[name] = value;
    return headers;
  }

  protected override authorize(request: HttpRequest): Promise<HttpRequest> {
    return this.signer.sign(request, { payloadHash: true });
  }

  /** Vector's retry logic for the cloud's services, widened or narrowed by `retry_strategy`. */
  protected override async judge(response: Dispatcher.ResponseData): Promise<Outcome> {
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      await response.body.dump();
      return { delivered: true };
    }
    const body = await response.body.text();
    const code = xmlText(body, 'Code');
    const reason = `HTTP ${status}${code ? ` ${code}: ${xmlText(body, 'Message') ?? ''}` : ''}`;
    const retriable =
      response.headers['x-amz-retry-after'] !== undefined ||
      status >= 500 ||
      status === 429 ||
      (status >= 400 && RETRIABLE_CODES.test(body));
    const strategy = this.options.retry_strategy;
    const retry =
      strategy.type === 'none'
        ? false
        : strategy.type === 'all' ||
          retriable ||
          (strategy.type === 'custom' && strategy.status_codes.includes(status));
    return { delivered: false, retry, reason, answered: true };
  }

  /** HeadBucket, with Vector's errors for a refusal (403) and an unknown bucket (404). */
  async healthcheck(): Promise<void> {
    const request = await this.signer.sign(
      { uri: this.address.uri(), method: 'HEAD', headers: {}, body: new Uint8Array() },
      { payloadHash: true },
    );
    const response = await this.fetch(request.uri, { method: 'HEAD', headers: request.headers });
    await response.body.dump();
    const status = response.statusCode;
    if (status >= 200 && status < 300) return;
    if (status === 403) throw new Error('Invalid credentials');
    if (status === 404) throw new Error(`Unknown bucket: ${JSON.stringify(this.options.bucket)}`);
    throw new Error(`Unknown status code: ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd());
  }
}

/** The sink; `timer`: how it waits between retries (tests drive their own); `processEnv`: where the
 * credentials chain and the region look (tests give their own). */
export async function buildS3Sink(
  parsed: S3Options,
  env: ComponentEnv,
  timer: RetryTimer,
  processEnv: NodeJS.ProcessEnv = process.env,
): Promise<Sink> {
  const region = cloudRegion(parsed.region, processEnv);
  const signer = await CloudSigner.build(parsed.auth, region, 's3', env.log, processEnv);
  const encoder = new SinkEncoder(
    encodeOptions(parsed.encoding, parsed.framing, 'message', env.globals.log_schema.message_key),
    env,
  );
  const timezone = parsed.timezone ?? env.globals.timezone;
  const template = (option: string, text: string) => EventTemplate.build(option, text, env, { timezone });
  const address = new BucketAddress(parsed.endpoint, region, parsed.bucket, parsed.force_path_style);
  return new S3Sink(
    parsed,
    encoder,
    env,
    await httpClient(parsed.tls, env),
    timer,
    address,
    signer,
    {
      keyPrefix: await template('key_prefix', parsed.key_prefix),
      ssekmsKeyId:
        parsed.ssekms_key_id === undefined ? undefined : await template('ssekms_key_id', parsed.ssekms_key_id),
    },
    namedTimeZone(timezone),
  );
}

const awsS3: SinkDefinition<S3Options> = {
  kind: 'sink',
  type: 'aws_s3',
  description: 'Store observability events in the cloud object storage system.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  inputs: () => ['log', 'metric', 'trace'],
  build: (parsed, env) => buildS3Sink(parsed, env, realTimer),
};

export default awsS3;
