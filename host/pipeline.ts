// Starting the pipeline: load and validate the configuration, build the graph and every component, run the
// sink healthchecks, then run until the sources end or a signal asks to stop. A configuration that fails
// anywhere before the start never runs half-built: the process exits with status 78 and every problem.

import { hostname as osHostname } from 'node:os';
import type { ComponentDefinition } from './components/component.js';
import { componentDefinition, componentRegistry } from './components/registry.js';
import { transformDefinition } from './components/transforms/index.js';
import { ConfigError } from './config/errors.js';
import { loadConfig, type ConfigLocations } from './config/load.js';
import { validateConfig, type ComponentConfig, type Config } from './config/schema.js';
import type { LogHub, Logger } from './log.js';
import { MetricsRegistry } from './telemetry/metrics.js';
import { InlineExecutor, WorkerExecutor, type WorkerThread } from './topology/executor.js';
import { buildGraph, TopologyError, type ComponentSpec } from './topology/graph.js';
import { BuildError, Topology } from './topology/run.js';

/** Vector's exit codes (sysexits). */
export const EXIT = { OK: 0, SOFTWARE: 70, CONFIG: 78 } as const;

export interface PipelineOptions {
  locations: ConfigLocations;
  /** False with --disable-env-var-interpolation. */
  interpolate: boolean;
  allowEmptyConfig: boolean;
  requireHealthy: boolean | undefined;
  /** Transform worker threads; 0 runs transforms on the main thread. */
  threads: number;
  chunkSize: number;
  maxDecompressedSize: number;
  log: Logger;
  logHub: LogHub;
  env?: NodeJS.ProcessEnv;
  /** A transform worker started before the configuration was read, so that it boots meanwhile; stopped
   * when no transform needs it. */
  earlyWorker?: WorkerThread;
}

/** Loads and validates the configuration; throws ConfigError with every problem. */
export async function loadPipelineConfig(options: Pick<PipelineOptions, 'locations' | 'interpolate' | 'allowEmptyConfig' | 'env'>): Promise<Config> {
  const raw = await loadConfig(options.locations, { env: options.env, interpolate: options.interpolate });
  const { config, errors } = validateConfig(raw, componentRegistry(), { allowEmpty: options.allowEmptyConfig });
  if (!config) throw new ConfigError(errors);
  const unsupported = [...config.sinks.values()]
    .filter((sink) => sink.buffer?.type === 'disk')
    .map((sink) => `${sink.file}: sinks.${sink.id}: option "buffer.type": disk buffers are not available in this build; use "memory"`);
  if (unsupported.length > 0) throw new ConfigError(unsupported);
  return config;
}

/** The graph's view of the configured components. */
export function componentSpecs(config: Config): ComponentSpec[] {
  const spec = (component: ComponentConfig, kind: ComponentSpec['kind']): ComponentSpec => ({
    id: component.id,
    kind,
    type: component.type,
    definition: componentDefinition(kind, component.type) as ComponentDefinition,
    options: component.options,
    inputs: component.inputs,
  });
  return [
    ...[...config.sources.values()].map((c) => spec(c, 'source')),
    ...[...config.transforms.values()].map((c) => spec(c, 'transform')),
    ...[...config.sinks.values()].map((c) => spec(c, 'sink')),
  ];
}

export interface BuiltPipeline {
  topology: Topology;
  metrics: MetricsRegistry;
  config: Config;
}

/** Builds every component of a validated configuration; throws ConfigError (graph or build problems). */
export async function buildPipeline(config: Config, options: PipelineOptions): Promise<BuiltPipeline> {
  let graph;
  try {
    graph = buildGraph(componentSpecs(config), config.global.wildcard_matching);
  } catch (error) {
    if (error instanceof TopologyError) throw new ConfigError(error.errors);
    throw error;
  }
  for (const warning of graph.warnings) options.log.warn(warning);
  const metrics = new MetricsRegistry();
  // No more workers than transforms: an idle worker costs start-up time and memory.
  const workers = Math.min(options.threads, config.transforms.size);
  const early = options.earlyWorker;
  if (early && workers === 0) void early.terminate();
  const executor = options.threads > 0 ? new WorkerExecutor(workers, early && workers > 0 ? [early] : []) : new InlineExecutor(transformDefinition);
  try {
    const topology = await Topology.build(graph, {
      sinkBuffer: (id) => {
        const buffer = config.sinks.get(id)!.buffer!;
        return buffer.type === 'memory'
          ? { maxEvents: buffer.max_events ?? Number.MAX_SAFE_INTEGER, maxBytes: buffer.max_size, whenFull: buffer.when_full }
          : { maxEvents: Number.MAX_SAFE_INTEGER, maxBytes: buffer.max_size, whenFull: buffer.when_full };
      },
      transformBufferEvents: 2 * options.chunkSize,
      env: {
        globals: config.global,
        chunkSize: options.chunkSize,
        maxDecompressedSize: options.maxDecompressedSize,
        hostname: process.env.SVC_HOSTNAME || osHostname(),
        metrics,
        logHub: options.logHub,
      },
      log: options.log,
      executor,
    });
    return { topology, metrics, config };
  } catch (error) {
    if (error instanceof BuildError) throw new ConfigError(error.errors);
    throw error;
  }
}

/** Runs the sinks' healthchecks; returns the failures (already logged). */
export async function runHealthchecks(built: BuiltPipeline, log: Logger): Promise<string[]> {
  if (!built.config.global.healthchecks.enabled) return [];
  const failures: string[] = [];
  await Promise.all(
    [...built.config.sinks.values()].map(async (sink) => {
      const check = built.topology.sinkHealthcheck(sink.id);
      if (!sink.healthcheck?.enabled || check === undefined) return;
      const timeoutMs = (sink.healthcheck.timeout ?? 10) * 1000;
      try {
        await withTimeout(check({ uri: sink.healthcheck.uri }), timeoutMs, `healthcheck timed out after ${timeoutMs / 1000} s`);
        log.info('Healthcheck passed.', { component_id: sink.id });
      } catch (error) {
        const message = `Healthcheck failed: ${error instanceof Error ? error.message : String(error)}`;
        failures.push(`sinks.${sink.id}: ${message}`);
        log.error(message, { component_id: sink.id, component_kind: 'sink', component_type: sink.type });
      }
    }),
  );
  return failures;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}
