// The `prometheus_exporter` sink, as Vector's: metrics are held by series and served at `GET /metrics` on
// `address` in the text exposition format (support/prometheus.ts), gzip-, brotli- or deflate-compressed when
// the client accepts it. Incremental metrics are added to the value held for their series (Vector's
// `MetricValue::add`) and held as absolute; distributions become histograms over `buckets`, or with
// `distributions_as_summaries` summaries at `quantiles` (svc keeps the samples and computes exact quantiles
// where Vector keeps a DDSketch). A series not updated for `flush_period_secs` goes with the next event once
// that period has passed since the last sweep (0: never). With `auth`, a request without the configured
// Authorization header is answered 401. The listener binds at build, so a taken address fails the start-up.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { type Clock, monotonicClock } from '../support/clock.js';
import { authHeader, authSchema } from '../support/http-batch-sink.js';
import { listenOn } from '../support/listeners.js';
import { addValue, batchMetrics, distributionStatistic, type Metric, seriesKey } from '../support/metric.js';
import {
  bucketsSchema,
  type ExposedMetric,
  exposeMetric,
  ExpositionWriter,
  quantilesSchema,
  samplesToBuckets,
} from '../support/prometheus.js';
import { reportHandshakeFailures, serverTlsOptions, tlsEnableableSchema, tlsFiles } from '../support/tls.js';

const options = z.strictObject({
  address: z.string().default('0.0.0.0:9598'),
  default_namespace: z.string().optional(),
  auth: authSchema.optional(),
  tls: tlsEnableableSchema.optional(),
  buckets: bucketsSchema,
  quantiles: quantilesSchema,
  distributions_as_summaries: z.boolean().default(false),
  flush_period_secs: z.number().int().nonnegative().default(60),
  suppress_timestamp: z.boolean().default(false),
});

type ExporterOptions = z.infer<typeof options>;

interface Held {
  metric: Metric;
  /** Monotonic milliseconds. */
  expiresAt: number;
  /** Its exposition, made at the first scrape after an update: scrapes repeat far more often than updates. */
  exposed?: ExposedMetric | null;
}

/** What identifies a held metric (Vector's `MetricRef`): its series, its value type, and the bounds of an
 * aggregated histogram or summary. */
function heldKey(metric: Metric): string {
  const value = metric.value;
  const bounds =
    value.type === 'aggregated_histogram'
      ? value.buckets.map((bucket) => bucket.upper_limit)
      : value.type === 'aggregated_summary'
        ? value.quantiles.map((quantile) => quantile.quantile)
        : null;
  return `${seriesKey(metric)}${JSON.stringify([value.type, bounds])}`;
}

/** The encodings a scrape may be compressed with, in svc's order of preference. */
const COMPRESSORS: ReadonlyArray<[string, (body: Buffer) => Buffer]> = [
  ['gzip', gzipSync],
  ['br', brotliCompressSync],
  ['deflate', deflateSync],
];

/** The encoding to answer with: the first of ours the client's Accept-Encoding allows (a q of 0 refuses). */
function chooseEncoding(accept: string | undefined): [string, (body: Buffer) => Buffer] | undefined {
  if (accept === undefined) return undefined;
  const allowed = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((found) => found !== undefined);
    allowed.set(coding!.trim(), q === undefined ? 1 : Number(q));
  }
  return COMPRESSORS.find(([coding]) => (allowed.get(coding) ?? allowed.get('*') ?? 0) > 0);
}

export class PrometheusExporter implements Sink {
  private readonly held = new Map<string, Held>();
  private readonly periodMs: number;
  private lastSweep: number;

  constructor(
    private readonly options: ExporterOptions,
    private readonly clock: Clock,
  ) {
    this.periodMs = options.flush_period_secs * 1000;
    this.lastSweep = clock();
  }

  async write(batch: EventBatch): Promise<void> {
    const now = this.clock();
    if (this.periodMs > 0 && now - this.lastSweep > this.periodMs) {
      this.lastSweep = now;
      for (const [key, held] of this.held) if (now >= held.expiresAt) this.held.delete(key);
    }
    for (const metric of batchMetrics(batch)) {
      const absolute = this.normalize(metric);
      if (this.options.suppress_timestamp) delete absolute.timestamp;
      const key = heldKey(absolute);
      // Map.set keeps an updated series where it was: the exposition lists a family's series in arrival order.
      this.held.set(key, { metric: absolute, expiresAt: now + this.periodMs });
    }
    batch.finalizer?.release('delivered');
  }

  /** The server scrapes reach, once listening. */
  server: Server | undefined;

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** The metric as held: distributions as histograms (or summary samples), incremental values added to the
   * value held for their series (or taken as they are, when there is none or they cannot be added). */
  private normalize(metric: Metric): Metric {
    let converted = metric;
    if (metric.value.type === 'distribution') {
      const { samples } = metric.value;
      converted = this.options.distributions_as_summaries
        ? { ...metric, value: { type: 'distribution', samples, statistic: 'summary' } }
        : { ...metric, value: { type: 'aggregated_histogram', ...samplesToBuckets(samples, this.options.buckets) } };
    }
    if (converted.kind === 'incremental') {
      const existing = this.held.get(heldKey(converted));
      if (existing !== undefined) {
        const sum = { ...existing.metric.value };
        if (addValue(sum, converted.value)) return { ...converted, kind: 'absolute', value: sum };
      }
    }
    return { ...converted, kind: 'absolute' };
  }

  /** The held metrics as the text exposition format. */
  exposition(): string {
    const options = {
      defaultNamespace: this.options.default_namespace,
      buckets: this.options.buckets,
      quantiles: this.options.quantiles,
    };
    const writer = new ExpositionWriter();
    for (const held of this.held.values()) {
      held.exposed ??= exposeMetric(this.summarized(held.metric), options) ?? null;
      if (held.exposed !== null) writer.add(held.exposed);
    }
    return writer.text();
  }

  /** With `distributions_as_summaries`, samples held as a summary at `quantiles`, with its sum and count. */
  private summarized(metric: Metric): Metric {
    if (metric.value.type !== 'distribution') return metric;
    const statistic = distributionStatistic(metric.value.samples, this.options.quantiles);
    return {
      ...metric,
      value: {
        type: 'aggregated_summary',
        quantiles: (statistic?.quantiles ?? []).map(([quantile, value]) => ({ quantile: quantile!, value: value! })),
        count: statistic?.count ?? 0,
        sum: statistic?.sum ?? 0,
      },
    };
  }
}

/** Serves the exporter's metrics: GET /metrics, 404 elsewhere, 401 without the configured credentials. */
function handler(exporter: PrometheusExporter, options: ExporterOptions, env: ComponentEnv) {
  const expected = authHeader(options.auth).authorization;
  return (request: IncomingMessage, response: ServerResponse) => {
    if (expected !== undefined && request.headers.authorization !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic, Bearer' }).end();
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    let body: Buffer = Buffer.from(exporter.exposition());
    const headers: Record<string, string> = { 'content-type': 'text/plain; version=0.0.4' };
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding !== undefined) {
      body = encoding[1](body);
      headers['content-encoding'] = encoding[0];
    }
    env.telemetry.sentRaw(body.length);
    response.writeHead(200, headers).end(body);
  };
}

/** The sink with its server listening; `clock`: what expiry measures time with (tests drive their own). */
export async function buildPrometheusExporter(
  parsed: ExporterOptions,
  env: ComponentEnv,
  clock: Clock = monotonicClock,
): Promise<PrometheusExporter> {
  if (parsed.flush_period_secs === 0) {
    env.log.warn(
      'Disabling `flush_period_secs` (setting it to `0`) disables metric expiration, which can result in unbounded memory growth if metric series cardinality is unbounded.',
    );
  }
  const tls = await serverTlsOptions(parsed.tls);
  const exporter = new PrometheusExporter(parsed, clock);
  const serve = handler(exporter, parsed, env);
  const server = tls ? createHttpsServer(tls, serve) : createServer(serve);
  if (tls) reportHandshakeFailures(server as HttpsServer, env);
  await listenOn(server, parsed.address);
  env.log.info('Building HTTP server.', { address: parsed.address });
  exporter.server = server;
  return exporter;
}

const prometheusExporter: SinkDefinition<ExporterOptions> = {
  kind: 'sink',
  type: 'prometheus_exporter',
  description: 'Expose metric events on a Prometheus compatible endpoint.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  inputs: () => ['metric'],
  build: (parsed, env) => buildPrometheusExporter(parsed, env),
};

export default prometheusExporter;
