// A ComponentEnv for component tests: real telemetry and logger, with the metrics registry and the log
// records at hand for assertions.

import type { ComponentDefinition, ComponentEnv } from '../../../host/components/component.js';
import { globalSchema } from '../../../host/config/global.js';
import type { LogRecord } from '../../../host/log.js';
import { textLogHub } from './log-hub.js';
import { ComponentTelemetry } from '../../../host/telemetry/component.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import { encodeBatch, type InputEvent } from '../../../abi/batch.js';
import { toBatch, type EventBatch } from '../../../host/topology/batch.js';

export interface TestEnv extends ComponentEnv {
  /** The records logged at info level or above. */
  logs: LogRecord[];
  /** The same, as the text lines written to stderr. */
  logLines: string[];
}

export function componentEnv(
  definition: Pick<ComponentDefinition, 'kind' | 'type'>,
  id = 'under_test',
  overrides: { dataDir?: string; chunkSize?: number } = {},
): TestEnv {
  const metrics = new MetricsRegistry();
  const logs: LogRecord[] = [];
  const { hub, lines: logLines } = textLogHub();
  hub.subscribe((record) => logs.push(record));
  return {
    id,
    globals: globalSchema.parse({ data_dir: overrides.dataDir ?? '/tmp', timezone: 'UTC' }),
    log: hub.logger(`svc::${definition.kind}s::${definition.type}`, { component_id: id }),
    telemetry: new ComponentTelemetry(metrics, id, definition.kind, definition.type),
    chunkSize: overrides.chunkSize ?? 1000,
    maxDecompressedSize: 100 * 1024 * 1024,
    hostname: 'test-host',
    metrics,
    logHub: hub,
    logs,
    logLines,
  };
}

/** Log events as a batch. */
export function logBatch(events: readonly object[]): EventBatch {
  return toBatch(
    encodeBatch(
      events.map((event): InputEvent => ({ event })),
      0,
    ),
  );
}
