// Topology options as tests use them: memory sink buffers of 500 events that block, no acknowledgements,
// chunks of 1000 events, default globals, the test's log hub and executor; a test overrides what it studies.

import { globalSchema } from '../../../host/config/global.js';
import type { LogHub } from '../../../host/log.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import type { TransformExecutor } from '../../../host/topology/executor.js';
import type { TopologyOptions } from '../../../host/topology/run.js';

type Env = TopologyOptions['env'];

export function testTopologyOptions(
  hub: LogHub,
  executor: TransformExecutor,
  overrides: Partial<Omit<TopologyOptions, 'env' | 'log' | 'executor'>> &
    Partial<Pick<Env, 'chunkSize' | 'hostname' | 'metrics' | 'maxDecompressedSize'>> & { globals?: unknown } = {},
): TopologyOptions {
  const { globals, chunkSize, hostname, metrics, maxDecompressedSize, ...topology } = overrides;
  return {
    sinkBuffer: () => ({ maxEvents: 500, whenFull: 'block' }),
    sinkAcknowledges: () => false,
    transformBufferEvents: 100,
    ...topology,
    env: {
      globals: globalSchema.parse(globals ?? {}),
      chunkSize: chunkSize ?? 1000,
      maxDecompressedSize: maxDecompressedSize ?? 1 << 20,
      hostname: hostname ?? 'h',
      metrics: metrics ?? new MetricsRegistry(),
      logHub: hub,
    },
    log: hub.logger('svc::test'),
    executor,
  };
}
