// Global options (spec 2's table, Vector's names and defaults), `api`, and the secret backends' schemas.
// Options whose behaviour comes with later work are accepted and validated here already.

import { z } from 'zod';
import {
  acknowledgementsSchema,
  cloudAuthSchema,
  positiveInteger,
  proxySchema,
  socketAddress,
  tlsEnableableSchema,
  tlsSchema,
  rustRegex,
} from './common.js';
import { parseFieldPath, TemplateError } from './template.js';

/** A `log_schema` path: `.message`, or the older bare form `message`; empty means none. */
const logSchemaPath = (fallback: string) =>
  z
    .string()
    .superRefine((value, context) => {
      try {
        parseFieldPath(value);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        context.addIssue({ code: 'custom', message: e.message });
      }
    })
    .default(fallback);

/** A TZ-database zone name or `local`. */
export const timezone = z.string().superRefine((value, context) => {
  if (value === 'local') return;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    context.addIssue({ code: 'custom', message: `unknown time zone "${value}"` });
  }
});

/** `expire_metrics_per_metric_set[]`: which metrics (by name and labels) expire after `expire_secs`. */
const metricSetSchema = z.strictObject({
  expire_secs: z.number(),
  name: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('exact'), value: z.string() }),
      z.strictObject({ type: z.literal('regex'), pattern: rustRegex }),
    ])
    .optional(),
  labels: z
    .strictObject({
      type: z.enum(['all', 'any']),
      matchers: z.array(
        z.discriminatedUnion('type', [
          z.strictObject({ type: z.literal('exact'), key: z.string(), value: z.string() }),
          z.strictObject({ type: z.literal('regex'), key: z.string(), value_pattern: rustRegex }),
        ]),
      ),
    })
    .optional(),
});

/** `api` (F.1). */
const apiSchema = z.strictObject({
  address: socketAddress.default('127.0.0.1:8686'),
  enabled: z.boolean().default(false),
  graphql: z.boolean().default(true),
  /** Served only when `graphql` is also on. */
  playground: z.boolean().default(true),
  /** HTTPS and WSS with the sources' server `tls` options (Vector's API has none: an svc addition). */
  tls: tlsEnableableSchema.optional(),
});
export type ApiOptions = z.output<typeof apiSchema>;

const globalObject = z.strictObject({
  acknowledgements: acknowledgementsSchema.prefault({}),
  api: apiSchema.prefault({}),
  buffer_utilization_ewma_alpha: z.number().gt(0).lt(1).default(0.9),
  data_dir: z.string().min(1).default('/var/lib/svc/'),
  /** Deprecated form of expire_metrics_secs. */
  expire_metrics: z
    .strictObject({ secs: z.number().int().min(0), nsecs: z.number().int().min(0).default(0) })
    .optional(),
  /** Seconds; negative disables expiry. */
  expire_metrics_secs: z.number().optional(),
  expire_metrics_per_metric_set: z.array(metricSetSchema).default([]),
  healthchecks: z
    .strictObject({
      enabled: z.boolean().default(true),
      require_healthy: z.boolean().default(false),
    })
    .prefault({}),
  log_schema: z
    .strictObject({
      host_key: logSchemaPath('.host'),
      message_key: logSchemaPath('.message'),
      metadata_key: logSchemaPath('.metadata'),
      source_type_key: logSchemaPath('.source_type'),
      timestamp_key: logSchemaPath('.timestamp'),
    })
    .prefault({}),
  /** Seconds; the remap metrics functions need it set. */
  metrics_storage_refresh_period: z.number().positive().optional(),
  proxy: proxySchema.prefault({}),
  schema: z
    .strictObject({
      // Vector's namespace (true) puts a source's payload at the event's root and what the source adds in
      // its metadata; each source's `log_namespace` overrides it.
      log_namespace: z.boolean().default(false),
    })
    .prefault({}),
  telemetry: z
    .strictObject({
      tags: z
        .strictObject({
          emit_service: z.boolean().default(false),
          emit_source: z.boolean().default(false),
        })
        .prefault({}),
    })
    .prefault({}),
  timezone: timezone.default('local'),
  wildcard_matching: z.enum(['strict', 'relaxed']).default('strict'),
});

/**
 * All global options. `expire_metrics` (deprecated) and `expire_metrics_secs` cannot both be set; the
 * result carries the effective `expire_metrics_secs` (300 when neither is).
 */
export const globalSchema = globalObject
  .superRefine((options, context) => {
    if (options.expire_metrics && options.expire_metrics_secs !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['expire_metrics'],
        message: 'cannot be set together with "expire_metrics_secs"',
      });
    }
  })
  .transform(({ expire_metrics, expire_metrics_secs, ...options }) => ({
    ...options,
    expire_metrics_secs:
      expire_metrics_secs ?? (expire_metrics ? expire_metrics.secs + expire_metrics.nsecs / 1e9 : 300),
  }));
export type GlobalOptions = z.output<typeof globalSchema>;

/** Secret backends (`secret.<name>`, C.3). */
export const secretBackendSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('file'), path: z.string().min(1) }),
  z.strictObject({
    type: z.literal('directory'),
    path: z.string().min(1),
    remove_trailing_whitespace: z.boolean().default(false),
  }),
  z.strictObject({
    type: z.literal('exec'),
    command: z.array(z.string()).min(1),
    /** Seconds. */
    timeout: positiveInteger.default(5),
    protocol: z
      .discriminatedUnion('version', [
        z.strictObject({ version: z.literal('v1') }),
        z.strictObject({
          version: z.literal('v1_1'),
          backend_type: z.string(),
          backend_config: z.unknown().optional(),
        }),
      ])
      .default({ version: 'v1' }),
  }),
  z.strictObject({
    type: z.literal('cloud_secrets_manager'),
    secret_id: z.string().min(1),
    region: z.string().optional(),
    endpoint: z.string().optional(),
    auth: cloudAuthSchema.optional(),
    tls: tlsSchema.optional(),
  }),
]);
export type SecretBackendOptions = z.output<typeof secretBackendSchema>;
