// The sink types, by name, each with the loader of its module: a run loads only the types its
// configuration uses.

import type { SinkDefinition } from '../component.js';

export const SINKS: ReadonlyMap<string, () => Promise<SinkDefinition>> = new Map<string, () => Promise<SinkDefinition>>(
  [
    ['amqp', async () => (await import('./amqp.js')).default as SinkDefinition],
    ['aws_s3', async () => (await import('./aws_s3.js')).default as SinkDefinition],
    ['blackhole', async () => (await import('./blackhole.js')).default as SinkDefinition],
    ['console', async () => (await import('./console.js')).default as SinkDefinition],
    ['elasticsearch', async () => (await import('./elasticsearch.js')).default as SinkDefinition],
    ['file', async () => (await import('./file.js')).default as SinkDefinition],
    ['http', async () => (await import('./http.js')).default as SinkDefinition],
    ['influxdb_logs', async () => (await import('./influxdb_logs.js')).default as SinkDefinition],
    ['influxdb_metrics', async () => (await import('./influxdb_metrics.js')).default as SinkDefinition],
    ['kafka', async () => (await import('./kafka.js')).default as SinkDefinition],
    ['prometheus_exporter', async () => (await import('./prometheus_exporter.js')).default as SinkDefinition],
    ['prometheus_remote_write', async () => (await import('./prometheus_remote_write.js')).default as SinkDefinition],
    ['loki', async () => (await import('./loki.js')).default as SinkDefinition],
    ['mqtt', async () => (await import('./mqtt.js')).default as SinkDefinition],
    ['nats', async () => (await import('./nats.js')).default as SinkDefinition],
    ['opentelemetry', async () => (await import('./opentelemetry.js')).default as SinkDefinition],
    ['redis', async () => (await import('./redis.js')).default as SinkDefinition],
    ['socket', async () => (await import('./socket.js')).default as SinkDefinition],
    ['splunk_hec_logs', async () => (await import('./splunk_hec_logs.js')).default as SinkDefinition],
    ['splunk_hec_metrics', async () => (await import('./splunk_hec_metrics.js')).default as SinkDefinition],
    ['vector', async () => (await import('./vector.js')).default as SinkDefinition],
  ],
);
