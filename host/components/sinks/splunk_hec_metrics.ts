// The `splunk_hec_metrics` sink, as Vector's: counters and gauges sent to Splunk's HTTP Event Collector
// (`/services/collector/event`), one HEC metric event per metric — `"event":"metric"`, `fields` with the
// metric's tags (but those its templates read), `metric_name` (`<namespace>.<name>`, the metric's namespace
// else `default_namespace`) and `_value`, `time` in seconds (now without a timestamp), the `host_key` tag as
// `host`, and `index`, `source`, `sourcetype` rendered from their templates. Other metric types are dropped
// and counted (Vector's "Metric kind not supported."). Tokens, indexer acknowledgements and the healthcheck
// are the HEC machinery both HEC sinks share (support/splunk-hec.ts).

import { z } from 'zod';
import { BatchReader, BatchWriter, displayFloat } from '../../../runtime/engine.js';
import type { RemapValue } from '../../../runtime/index.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { httpClient, type HttpClient, type HttpRequest } from '../support/http-batch-sink.js';
import { readMetric, tagValue } from '../support/metric.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import {
  HecBatchSink,
  hecSinkFields,
  hecTemplates,
  type HecTemplates,
  METADATA_FIELDS,
} from '../support/splunk-hec.js';
import { tlsFiles } from '../support/tls.js';

const options = z.strictObject({ ...hecSinkFields, default_namespace: z.string().optional() });
type HecMetricsOptions = z.infer<typeof options>;

class SplunkHecMetricsSink extends HecBatchSink {
  /** The tags the templates read: not sent as fields (Vector's `templated_field_keys`). */
  private readonly templatedTags: Set<string>;
  private readonly hostTag: string | undefined;

  constructor(
    private readonly options: HecMetricsOptions,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    templates: HecTemplates,
  ) {
    super(options, env, client, timer, templates);
    this.templatedTags = new Set(
      Object.values(templates).flatMap((template) =>
        template.fields.map((field) => field.replace(/^\./, '').replace('tags.', '')),
      ),
    );
    // The host tag: `host_key` names a tag here (Vector renders the path as a tag name).
    const hostKey = options.host_key ?? env.globals.log_schema.host_key;
    this.hostTag = hostKey === '' ? undefined : hostKey.replace(/^\./, '');
  }

  /** Metrics by the token they came with. */
  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    const reader = new BatchReader(batch.bytes);
    const writers = new Map<string, BatchWriter>();
    for (const cursor = reader.cursor(); cursor.next(); ) {
      const key = JSON.stringify(this.passthroughToken(reader, cursor));
      let writer = writers.get(key);
      if (writer === undefined) writers.set(key, (writer = new BatchWriter()));
      writer.appendRaw(cursor.record());
    }
    return new Map([...writers].map(([key, writer]) => [key, toBatch(writer.finish())]));
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const payloads = parts.flatMap((part) => this.payloads(part));
    if (payloads.length === 0) return undefined;
    return this.hecRequest('/services/collector/event', '', JSON.parse(key) as string | null, payloads);
  }

  private payloads(part: EventBatch): Buffer[] {
    const rendered = this.renderMetadata(part);
    const reader = new BatchReader(part.bytes);
    const payloads: Buffer[] = [];
    for (const view of reader) {
      const metric = readMetric(reader.decodeRecord(view).event as RemapValue);
      const { value } = metric;
      if (value.type !== 'counter' && value.type !== 'gauge') {
        this.env.telemetry.error('invalid_metric', 'processing');
        this.env.telemetry.discarded(1, false);
        this.env.log.error('Invalid metric received.', {
          error: 'Metric kind not supported.',
          error_type: 'invalid_metric',
          stage: 'processing',
          kind: metric.kind,
          internal_log_rate_key: 'invalid_metric',
        });
        continue;
      }
      const namespace = metric.namespace ?? this.options.default_namespace;
      const fields: Record<string, string> = {};
      for (const tag of Object.keys(metric.tags ?? {})) {
        const text = tagValue(metric.tags, tag);
        if (text !== null && text !== undefined && !this.templatedTags.has(tag)) fields[tag] = text;
      }
      fields.metric_name = namespace === undefined ? metric.name : `${namespace}.${metric.name}`;
      // Vector's fields are sorted by name; `_value` is a float.
      const sorted = Object.keys({ ...fields, _value: 0 }).sort();
      const fieldText = sorted
        .map(
          (name) =>
            `${JSON.stringify(name)}:${name === '_value' ? displayFloat(value.value) : JSON.stringify(fields[name])}`,
        )
        .join(',');
      const millis = metric.timestamp === undefined ? Date.now() : Number(metric.timestamp / 1_000_000n);
      let hec = `{"event":"metric","fields":{${fieldText}},"time":${displayFloat(millis / 1000)}`;
      const host = this.hostTag === undefined ? undefined : tagValue(metric.tags, this.hostTag);
      if (host !== null && host !== undefined) hec += `,"host":${JSON.stringify(host)}`;
      for (const field of METADATA_FIELDS) {
        const text = rendered[field]?.[view.index];
        if (text !== undefined) hec += `,"${field}":${JSON.stringify(text)}`;
      }
      payloads.push(Buffer.from(`${hec}}`));
    }
    return payloads;
  }
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildSplunkHecMetricsSink(
  parsed: HecMetricsOptions,
  env: ComponentEnv,
  timer: RetryTimer,
): Promise<Sink> {
  const client = await httpClient(parsed.tls, env);
  return new SplunkHecMetricsSink(parsed, env, client, timer, await hecTemplates(parsed, env));
}

const splunkHecMetrics: SinkDefinition<HecMetricsOptions> = {
  kind: 'sink',
  type: 'splunk_hec_metrics',
  description: "Deliver metric data to Splunk's HTTP Event Collector.",
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  inputs: () => ['metric'],
  build: (parsed, env) => buildSplunkHecMetricsSink(parsed, env, realTimer),
  // Its `acknowledgements` has the indexer acknowledgement options beside `enabled`.
  ownCommon: ['acknowledgements'],
};

export default splunkHecMetrics;
