// What the influxdb_logs and influxdb_metrics sinks share, as Vector's `sinks::influxdb`: the v1 settings
// (`database`, `consistency`, `retention_policy_name`, `username`, `password`) or the v2 ones (`org`, `bucket`,
// `token`), chosen by `version` or, without it, by which are set; the write URI (`/write` or `/api/v2/write`,
// precision ns) and its `Authorization: Token`; the `/ping` healthcheck; and the line protocol with Vector's
// escaping and field types (integers `i`, unsigned `i` in v1 and `u` in v2, floats as Rust prints them,
// strings quoted). `InfluxDbBatchSink` is both sinks but the line of an event.

import { z } from 'zod';
import { BatchReader, displayFloat } from '../../../runtime/engine.js';
import type { RemapValue } from '../../../runtime/index.js';
import type { EventBatch } from '../../topology/batch.js';
import type { ComponentEnv } from '../component.js';
import { commonSettings, HttpBatchSink, type HttpClient, type HttpRequest } from './http-batch-sink.js';
import type { RetryTimer } from './retry.js';

/** The options of both sinks that say where and how to write. */
export const influxDbFields = {
  endpoint: z.string(),
  version: z.enum(['1', '2']).optional(),
  database: z.string().optional(),
  consistency: z.string().optional(),
  retention_policy_name: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  org: z.string().optional(),
  bucket: z.string().optional(),
  token: z.string().optional(),
};

const influxDbShape = z.object(influxDbFields);
type InfluxDbOptions = z.infer<typeof influxDbShape>;

const V1_OPTIONS = ['database', 'consistency', 'retention_policy_name', 'username', 'password'] as const;
const V2_OPTIONS = ['org', 'bucket', 'token'] as const;

/** Vector's checks of the settings, as issues on the options (`svc validate` names the option). */
export function checkInfluxDbSettings(ctx: z.core.ParsePayload<InfluxDbOptions>): void {
  const options = ctx.value;
  const hasV1 = V1_OPTIONS.some((key) => options[key] !== undefined);
  const hasV2 = V2_OPTIONS.some((key) => options[key] !== undefined);
  const issue = (path: string, message: string): void => {
    ctx.issues.push({ code: 'custom', input: options, path: [path], message });
  };
  let version = options.version;
  if (version === '1' && hasV2)
    return issue(
      'version',
      'InfluxDB v1 settings are configured, but v2 settings were also provided; configure only one version.',
    );
  if (version === '2' && hasV1)
    return issue(
      'version',
      'InfluxDB v2 settings are configured, but v1 settings were also provided; configure only one version.',
    );
  if (version === undefined) {
    if (hasV1 && hasV2)
      return issue(
        'version',
        'Unclear settings. Both InfluxDB v1 and v2 settings are configured; configure only one version.',
      );
    if (!hasV1 && !hasV2) return issue('version', 'InfluxDB v1 or v2 should be configured as endpoint.');
    version = hasV1 ? '1' : '2';
  }
  const required = version === '1' ? (['database'] as const) : (['org', 'bucket', 'token'] as const);
  for (const key of required)
    if (options[key] === undefined) issue(key, `the \`${key}\` option is required when using InfluxDB v${version}`);
}

export type ProtocolVersion = 1 | 2;

interface InfluxDbTarget {
  version: ProtocolVersion;
  writeUri: string;
  pingUri: string;
  headers: Record<string, string>;
}

/** Where and how the sink writes; the version chosen as `checkInfluxDbSettings` does. */
function influxDbTarget(options: InfluxDbOptions, env: ComponentEnv): InfluxDbTarget {
  const version: ProtocolVersion = (options.version ?? (options.database !== undefined ? '1' : '2')) === '1' ? 1 : 2;
  if (options.version === undefined)
    env.log.warn(
      'The `version` option is currently optional but will be required in a future release. Please set it to `1` or `2` to match your InfluxDB settings.',
    );
  const pairs: Array<[string, string | undefined]> =
    version === 1
      ? [
          ['consistency', options.consistency],
          ['db', options.database],
          ['rp', options.retention_policy_name],
          ['p', options.password],
          ['u', options.username],
          ['precision', 'ns'],
        ]
      : [
          ['org', options.org],
          ['bucket', options.bucket],
          ['precision', 'ns'],
        ];
  const query = new URLSearchParams(pairs.filter((pair): pair is [string, string] => pair[1] !== undefined));
  const base = options.endpoint.replace(/\/+$/, '');
  return {
    version,
    writeUri: `${base}/${version === 1 ? 'write' : 'api/v2/write'}?${query}`,
    pingUri: `${base}/ping`,
    // v1 takes no token: Vector sends an empty one.
    headers: { 'content-type': 'text/plain', authorization: `Token ${version === 2 ? options.token : ''}` },
  };
}

/** A field's value by its line protocol type. */
export type Field =
  | { type: 'string'; value: string }
  | { type: 'float'; value: number }
  | { type: 'integer'; value: bigint }
  | { type: 'unsigned'; value: bigint | number }
  | { type: 'boolean'; value: boolean };

/** A float as Rust prints it: shortest round trip, no exponent, no `.0` on an integral value. */
export function rustFloat(value: number): string {
  return displayFloat(value).replace(/\.0$/, '');
}

/** Measurement names, tag keys and values, field keys: backslash before `\`, `,`, space and `=`. */
const escapeName = (text: string) => (NAME_SPECIALS.test(text) ? text.replace(/[\\, =]/g, (c) => `\\${c}`) : text);
const NAME_SPECIALS = /[\\, =]/;

const STRING_SPECIALS = /[\\"]/;

function fieldValue(field: Field, version: ProtocolVersion): string {
  switch (field.type) {
    case 'string':
      return `"${STRING_SPECIALS.test(field.value) ? field.value.replace(/[\\"]/g, (c) => `\\${c}`) : field.value}"`;
    case 'float':
      return rustFloat(field.value);
    case 'integer':
      return `${field.value}i`;
    case 'unsigned':
      return `${field.value}${version === 1 ? 'i' : 'u'}`;
    case 'boolean':
      return String(field.value);
  }
}

/**
 * One line: measurement, the tags (sorted; those with an empty key or value left out), the fields, the
 * timestamp in nanoseconds. Undefined without fields (Vector's "fields must not be empty").
 */
export function lineProtocol(
  version: ProtocolVersion,
  measurement: string,
  tags: Record<string, string>,
  fields: ReadonlyArray<[string, Field]>,
  timestamp: bigint,
): string | undefined {
  if (fields.length === 0) return undefined;
  const tagText = Object.keys(tags)
    .sort()
    .filter((key) => key !== '' && tags[key] !== '')
    .map((key) => `,${escapeName(key)}=${escapeName(tags[key]!)}`)
    .join('');
  const fieldText = fields.map(([key, field]) => `${escapeName(key)}=${fieldValue(field, version)}`).join(',');
  return `${escapeName(measurement)}${tagText} ${fieldText} ${timestamp}`;
}

/**
 * An influxdb sink: each event's line (`line`), written in batches to the write URI; the healthcheck pings.
 * `trailingNewline`: the body ends with a newline (influxdb_logs) or not (influxdb_metrics), as in Vector.
 */
export abstract class InfluxDbBatchSink extends HttpBatchSink {
  private readonly target: InfluxDbTarget;

  constructor(
    options: InfluxDbOptions & Parameters<typeof commonSettings>[0],
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly trailingNewline: boolean,
  ) {
    super(env, client, timer, { ...commonSettings(options, client), partitioned: false });
    this.target = influxDbTarget(options, env);
  }

  /** The protocol version the lines are written for. */
  protected get version(): ProtocolVersion {
    return this.target.version;
  }

  /** The line of a decoded event; undefined when it has no fields (counted), null when nothing is to be written. */
  protected abstract line(event: RemapValue): string | undefined | null;

  protected async buildRequest(_key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const lines: string[] = [];
    for (const part of parts) {
      const reader = new BatchReader(part.bytes);
      for (const view of reader) {
        const line = this.line(reader.decodeRecord(view).event as RemapValue);
        if (line === undefined) lineWithoutFields(this.env);
        else if (line !== null) lines.push(line);
      }
    }
    if (lines.length === 0) return undefined;
    return {
      uri: this.target.writeUri,
      method: 'POST',
      headers: this.target.headers,
      body: Buffer.from(`${lines.join('\n')}${this.trailingNewline ? '\n' : ''}`),
      events: lines.length,
    };
  }

  /** Vector's healthcheck: `/ping` answers 200 or 204. */
  async healthcheck(): Promise<void> {
    const response = await this.fetch(this.target.pingUri, { method: 'GET' });
    await response.body.dump();
    if (response.statusCode !== 200 && response.statusCode !== 204)
      throw new Error(`Unexpected status: ${response.statusCode}`);
  }
}

/** Counts and logs a line left out for having no fields (Vector's `InfluxdbEncodingError`). */
function lineWithoutFields(env: ComponentEnv): void {
  const message = 'fields must not be empty';
  env.telemetry.error('encoder_failed', 'processing');
  env.telemetry.discarded(1, false);
  env.log.error('Failed to encode event.', {
    error: message,
    error_type: 'encoder_failed',
    stage: 'processing',
    internal_log_rate_key: 'influxdb_encoding',
  });
}
