// The `prometheus_remote_write` sink, as Vector's: incremental metrics are added up per series into absolute
// ones (Vector's `MetricSet::make_absolute`; a series not updated for `expire_metrics_secs` starts again),
// gathered into batches (with `batch.aggregate`, the latest value of each series only), and each batch is
// sent to `endpoint` as one protobuf WriteRequest (support/prometheus.ts) compressed with `compression`
// (snappy by default), with the headers of remote write 0.1.0 and `tenant_id` as X-Scope-OrgID (events are
// batched per tenant). Requests, retries (408, 429, 5xx but 501, and failed requests; other 4xx are given up),
// concurrency and TLS are those of every HTTP sink (support/http-batch-sink.ts). The healthcheck GETs the
// endpoint and wants a 200.

import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { templateOption } from '../../config/template.js';
import { type Clock, monotonicClock } from '../support/clock.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { EventTemplate } from '../support/event-template.js';
import {
  authHeader,
  commonSettings,
  HttpBatchSink,
  type HttpRequest,
  httpClient,
  type HttpClient,
  httpTlsSchema,
  httpUri,
  requestWithHeadersSchema,
} from '../support/http-batch-sink.js';
import { addValue, batchMetrics, type Metric, seriesKey } from '../support/metric.js';
import { bucketsSchema, quantilesSchema, timeSeries, writeRequestType } from '../support/prometheus.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import { tlsFiles } from '../support/tls.js';

const options = z
  .strictObject({
    endpoint: httpUri.default('http://localhost:8087/'),
    default_namespace: z.string().optional(),
    buckets: bucketsSchema,
    quantiles: quantilesSchema,
    batch: z
      .strictObject({
        max_bytes: z.number().int().positive().optional(),
        max_events: z.number().int().positive().default(1000),
        timeout_secs: z.number().positive().default(1),
        aggregate: z.boolean().default(true),
      })
      .prefault({}),
    request: requestWithHeadersSchema,
    tenant_id: templateOption().optional(),
    expire_metrics_secs: z.number().positive().optional(),
    tls: httpTlsSchema.optional(),
    auth: z
      .discriminatedUnion('strategy', [
        z.strictObject({ strategy: z.literal('basic'), user: z.string(), password: z.string() }),
        z.strictObject({ strategy: z.literal('bearer'), token: z.string() }),
      ])
      .optional(),
    compression: z.enum(['snappy', 'gzip', 'zstd']).default('snappy'),
  })
  .check((ctx) => {
    const { auth, request } = ctx.value;
    if (auth !== undefined && Object.keys(request.headers).some((name) => name.toLowerCase() === 'authorization')) {
      ctx.issues.push({
        code: 'custom',
        input: request.headers,
        path: ['request', 'headers'],
        message: 'Authorization header can not be used with defined auth options',
      });
    }
  });

type RemoteWriteOptions = z.infer<typeof options>;

/** Incremental metrics made absolute by adding each to the value held for its series. */
class AbsoluteMetrics {
  private readonly held = new Map<string, { metric: Metric; updatedAt: number }>();
  private lastCleanup: number;

  constructor(
    private readonly ttlMs: number | undefined,
    private readonly clock: Clock,
  ) {
    this.lastCleanup = clock();
  }

  /** `key`: the metric's `seriesKey`. */
  absolute(metric: Metric, key: string): Metric {
    const now = this.clock();
    if (this.ttlMs !== undefined && now - this.lastCleanup >= this.ttlMs) {
      this.lastCleanup = now;
      for (const [key, entry] of this.held) if (now - entry.updatedAt >= this.ttlMs) this.held.delete(key);
    }
    if (metric.kind === 'absolute') return metric;
    let value = metric.value;
    const existing = this.held.get(key);
    if (existing !== undefined) {
      const sum = { ...existing.metric.value };
      if (addValue(sum, metric.value)) value = sum;
    }
    this.held.set(key, { metric: { ...metric, value }, updatedAt: now });
    return { ...metric, kind: 'absolute', value };
  }
}

class RemoteWriteSink extends HttpBatchSink {
  private readonly headers: Record<string, string>;
  private readonly absolute: AbsoluteMetrics;

  constructor(
    private readonly options: RemoteWriteOptions,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    /** `tenant_id` when it renders per event (a fixed one is a header of every request). */
    private readonly tenant: EventTemplate | undefined,
    fixedTenant: string | undefined,
    clock: Clock,
  ) {
    super(env, client, timer, { ...commonSettings(options, client), partitioned: tenant !== undefined });
    this.absolute = new AbsoluteMetrics(
      options.expire_metrics_secs === undefined ? undefined : options.expire_metrics_secs * 1000,
      clock,
    );
    this.headers = {
      'x-prometheus-remote-write-version': '0.1.0',
      'content-type': 'application/x-protobuf',
      'content-encoding': CONTENT_ENCODING[options.compression],
      ...(fixedTenant !== undefined && { 'x-scope-orgid': fixedTenant }),
      ...authHeader(options.auth),
      ...options.request.headers,
    };
  }

  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    return this.tenant!.group(batch, this.env);
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest> {
    const metrics: Metric[] = [];
    const latest = new Map<string, Metric>();
    for (const part of parts) {
      for (const metric of batchMetrics(part)) {
        // The same series before and after: its key is worked out once.
        const key = seriesKey(metric);
        const absolute = this.absolute.absolute(metric, key);
        // Aggregated, a batch keeps the latest value of each series (Vector's `MetricSet::insert_update`).
        if (this.options.batch.aggregate) latest.set(key, absolute);
        else metrics.push(absolute);
      }
    }
    const request = timeSeries(
      this.options.batch.aggregate ? latest.values() : metrics,
      {
        defaultNamespace: this.options.default_namespace,
        buckets: this.options.buckets,
        quantiles: this.options.quantiles,
      },
      Date.now(),
    );
    const type = writeRequestType();
    const body = type.encode(type.fromObject(request)).finish();
    const headers = this.tenant === undefined ? this.headers : { ...this.headers, 'x-scope-orgid': key };
    return {
      uri: this.options.endpoint,
      method: 'POST',
      headers,
      body: await compress(this.options.compression, body),
    };
  }

  /** Vector's: a GET of the endpoint answered 200. */
  async healthcheck(): Promise<void> {
    const { 'content-type': _type, ...headers } = this.headers;
    const response = await this.fetch(this.options.endpoint, { method: 'GET', headers });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`Unexpected status: ${response.statusCode}`);
  }
}

/** The sink; `timer`: how it waits between retries, `clock`: what `expire_metrics_secs` measures (tests
 * drive their own). */
export async function buildRemoteWriteSink(
  parsed: RemoteWriteOptions,
  env: ComponentEnv,
  timer: RetryTimer = realTimer,
  clock: Clock = monotonicClock,
): Promise<Sink> {
  const tenant =
    parsed.tenant_id === undefined ? undefined : await EventTemplate.build('tenant_id', parsed.tenant_id, env);
  const client = await httpClient(parsed.tls, env);
  const fixed = tenant?.fixedText;
  return new RemoteWriteSink(parsed, env, client, timer, fixed === undefined ? tenant : undefined, fixed, clock);
}

const prometheusRemoteWrite: SinkDefinition<RemoteWriteOptions> = {
  kind: 'sink',
  type: 'prometheus_remote_write',
  description: 'Deliver metric data to a Prometheus remote write endpoint.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  inputs: () => ['metric'],
  build: (parsed, env) => buildRemoteWriteSink(parsed, env),
};

export default prometheusRemoteWrite;
