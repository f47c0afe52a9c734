// A ComponentEnv for component tests: real telemetry and logger, with the metrics registry and the log
// records at hand for assertions.

import type { ComponentDefinition, ComponentEnv } from '../../host/components/component.js';
import { LogHub, type LogRecord } from '../../host/log.js';
import { ComponentTelemetry } from '../../host/telemetry/component.js';
import { MetricsRegistry } from '../../host/telemetry/metrics.js';
import { encodeBatch, type InputEvent } from '../../runtime/batch.js';
import { toBatch, type EventBatch } from '../../host/topology/batch.js';

export interface TestEnv extends ComponentEnv {
  metrics: MetricsRegistry;
  logs: LogRecord[];
}

export function componentEnv(definition: Pick<ComponentDefinition, 'kind' | 'type'>, id = 'under_test'): TestEnv {
  const metrics = new MetricsRegistry();
  const logs: LogRecord[] = [];
  const hub = new LogHub({ level: 'off', format: 'text', color: false, rateLimitSecs: 0, backtraces: false, write: () => {} });
  hub.subscribe((record) => logs.push(record));
  return {
    id,
    globals: {
      data_dir: '/tmp',
      timezone: 'UTC',
      log_schema: { host_key: 'host', message_key: 'message', metadata_key: 'metadata', source_type_key: 'source_type', timestamp_key: 'timestamp' },
      wildcard_matching: 'strict',
    },
    log: hub.logger(`svc::${definition.kind}s::${definition.type}`, { component_id: id }),
    telemetry: new ComponentTelemetry(metrics, id, definition.kind, definition.type),
    chunkSize: 1000,
    maxDecompressedSize: 100 * 1024 * 1024,
    hostname: 'test-host',
    metrics,
    logs,
  };
}

/** Log events as a batch. */
export function logBatch(events: readonly object[]): EventBatch {
  return toBatch(encodeBatch(events.map((event): InputEvent => ({ event })), 0));
}
