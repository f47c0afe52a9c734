// The source types, by name, each with the loader of its module: a run loads only the types its
// configuration uses (their modules, schemas and libraries were most of the start-up).

import type { SourceDefinition } from '../component.js';

export const SOURCES: ReadonlyMap<string, () => Promise<SourceDefinition>> = new Map<
  string,
  () => Promise<SourceDefinition>
>([
  ['amqp', async () => (await import('./amqp.js')).default],
  ['demo_logs', async () => (await import('./demo_logs.js')).default],
  ['eventdb_metrics', async () => (await import('./eventdb_metrics.js')).default],
  ['exec', async () => (await import('./exec.js')).default],
  ['file', async () => (await import('./file.js')).default],
  ['http_server', async () => (await import('./http_server.js')).default],
  ['http', async () => (await import('./http_server.js')).httpSource],
  ['host_metrics', async () => (await import('./host_metrics.js')).default],
  ['internal_logs', async () => (await import('./internal_logs.js')).default],
  ['internal_metrics', async () => (await import('./internal_metrics.js')).default],
  ['kafka', async () => (await import('./kafka.js')).default],
  ['mqtt', async () => (await import('./mqtt.js')).default],
  ['prometheus_remote_write', async () => (await import('./prometheus_remote_write.js')).default],
  ['prometheus_scrape', async () => (await import('./prometheus_scrape.js')).default],
  ['nats', async () => (await import('./nats.js')).default],
  ['opentelemetry', async () => (await import('./opentelemetry.js')).default],
  ['redis', async () => (await import('./redis.js')).default],
  ['socket', async () => (await import('./socket.js')).default],
  ['splunk_hec', async () => (await import('./splunk_hec.js')).default],
  ['statsd', async () => (await import('./statsd.js')).default],
  ['stdin', async () => (await import('./stdin.js')).default],
  ['syslog', async () => (await import('./syslog.js')).default],
  ['vector', async () => (await import('./vector.js')).default],
]);
