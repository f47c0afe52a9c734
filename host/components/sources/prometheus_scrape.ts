// The `prometheus_scrape` source, as Vector's: every `scrape_interval_secs` (the first at once) each of
// `endpoints`, with the `query` parameters added, is fetched (GET, `Accept: text/plain`, `auth`, `tls`,
// within `scrape_timeout_secs`) and its text exposition parsed into metrics (support/prometheus.ts):
// counters, gauges (untyped too), aggregated histograms and summaries, all absolute. `instance_tag` and
// `endpoint_tag` tag each metric with the endpoint's `host:port` and URL; a metric that has the tag already
// keeps it under `exported_<tag>`, or with `honor_labels` keeps its own. A failed request, an error status and
// an exposition that does not parse are counted in `component_errors_total` and logged; the scrape goes on.

import { z } from 'zod';
import type { ComponentEnv, Source, SourceDefinition } from '../component.js';
import { authHeader, authSchema, httpClient, httpTlsSchema } from '../support/http-batch-sink.js';
import { type Metric, metricEvent, scrapeEvery } from '../support/metric.js';
import { parseExposition } from '../support/prometheus.js';
import { effectiveProxy, ProxiedDispatchers } from '../support/proxy.js';
import { tlsFiles } from '../support/tls.js';

const endpoint = z.string().refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), {
  message: 'expected an http:// or https:// URI',
});

const options = z.strictObject({
  endpoints: z.array(endpoint),
  scrape_interval_secs: z.number().int().positive().default(15),
  scrape_timeout_secs: z.number().positive().default(5),
  instance_tag: z.string().optional(),
  endpoint_tag: z.string().optional(),
  honor_labels: z.boolean().default(false),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  tls: httpTlsSchema.optional(),
  auth: authSchema.optional(),
});

type ScrapeOptions = z.infer<typeof options>;

/** An endpoint with the `query` parameters added to its own (Vector's `build_url`). */
function withQuery(uri: string, query: ScrapeOptions['query']): URL {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
  }
  return url;
}

/** `host:port` of an endpoint, the scheme's port when it has none. */
function instanceOf(url: URL): string {
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return `${url.hostname}:${port}`;
}

/** Sets `tag` to `value` on a metric; one it had moves to `exported_<tag>`, or stays with `honor_labels`. */
function setTag(metric: Metric, tag: string, value: string, honorLabels: boolean): void {
  const tags = (metric.tags ??= {});
  const existing = tags[tag];
  if (existing !== undefined) {
    if (honorLabels) return;
    tags[`exported_${tag}`] = existing;
  }
  tags[tag] = value;
}

async function build(parsed: ScrapeOptions, env: ComponentEnv): Promise<Source> {
  const urls = parsed.endpoints.map((uri) => withQuery(uri, parsed.query));
  if (parsed.scrape_timeout_secs >= parsed.scrape_interval_secs) {
    env.log.warn(
      'Having a scrape timeout that exceeds the scrape interval can lead to excessive resource consumption.',
      { interval_secs: parsed.scrape_interval_secs, timeout_secs: parsed.scrape_timeout_secs },
    );
  }
  const client = await httpClient(parsed.tls, env);
  const dispatchers = new ProxiedDispatchers(client.undici, effectiveProxy(env.globals.proxy, env.proxy), {
    tls: client.tls,
  });
  const headers = { accept: 'text/plain', ...authHeader(parsed.auth) };

  const failed = (url: URL, errorType: string, message: string) => {
    env.telemetry.error(errorType, errorType === 'parser_failed' ? 'processing' : 'receiving');
    env.log.error(message, { endpoint: url.toString(), error_type: errorType, internal_log_rate_key: errorType });
  };

  /** One endpoint's metrics, or none when the scrape failed (counted). */
  const scrape = async (url: URL, signal: AbortSignal): Promise<Metric[]> => {
    let body: Buffer;
    try {
      const response = await client.undici.request(url, {
        method: 'GET',
        headers,
        dispatcher: dispatchers.for(url),
        signal: AbortSignal.any([signal, AbortSignal.timeout(parsed.scrape_timeout_secs * 1000)]),
      });
      body = Buffer.from(await response.body.arrayBuffer());
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const hint =
          response.statusCode === 404 && url.pathname === '/'
            ? ' No path is set on the endpoint and we got a 404, did you mean to use /metrics?'
            : '';
        failed(url, 'request_failed', `HTTP error response: ${response.statusCode}.${hint}`);
        return [];
      }
    } catch (error) {
      if (signal.aborted) return [];
      failed(url, 'request_failed', `HTTP request failed: ${(error as Error).message}.`);
      return [];
    }
    env.telemetry.receivedRaw(body.length);
    let metrics: Metric[];
    try {
      metrics = parseExposition(body.toString('utf8'), BigInt(Date.now()) * 1_000_000n);
    } catch (error) {
      failed(url, 'parser_failed', `Parsing error in Prometheus text: ${(error as Error).message}.`);
      return [];
    }
    for (const metric of metrics) {
      if (parsed.instance_tag !== undefined) setTag(metric, parsed.instance_tag, instanceOf(url), parsed.honor_labels);
      if (parsed.endpoint_tag !== undefined) setTag(metric, parsed.endpoint_tag, url.toString(), parsed.honor_labels);
    }
    return metrics;
  };

  return {
    async run(context) {
      try {
        await scrapeEvery(parsed.scrape_interval_secs, context, env.chunkSize, async () => {
          const scraped = await Promise.all(urls.map((url) => scrape(url, context.shutdown)));
          return scraped.flat().map((metric) => metricEvent(metric));
        });
      } finally {
        await dispatchers.close();
      }
    },
  };
}

const prometheusScrape: SourceDefinition<ScrapeOptions> = {
  kind: 'source',
  type: 'prometheus_scrape',
  description: 'Collect metrics from Prometheus exporters.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  build,
};

export default prometheusScrape;
