// Starting the pipeline: load and validate the configuration, build the graph and every component, run the
// sink healthchecks, then run until the sources end or a signal asks to stop. A configuration that fails
// anywhere before the start never runs half-built: the process exits with status 78 and every problem.

import { hostname as osHostname } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import type { ComponentDefinition, Sink } from './components/component.js';
import {
  componentDefinition,
  componentRegistry,
  enrichmentTableDefinition,
  transformDefinition,
} from './components/registry.js';
import { sinkBufferSchema } from './config/common.js';
import type { MemoryTable } from './enrichment/memory-table.js';
import { ConfigError } from './config/errors.js';
import type { ConfigLocations } from './config/load.js';
import { KIND_SECTION, validateConfig, type ComponentConfig, type Config } from './config/schema.js';
import { loadConfigWithSecrets } from './config/secrets.js';
import type { LogHub, Logger } from './log.js';
import { loadEnrichmentTables, type LoadedTable } from './enrichment/load.js';
import { metricExpiry } from './telemetry/expiry.js';
import { MetricsRegistry } from './telemetry/metrics.js';
import { InlineExecutor, WorkerExecutor, type TransformExecutor, type WorkerThread } from './topology/executor.js';
import { buildGraph, TopologyError, type ComponentSpec, type Graph } from './topology/graph.js';
import { BuildError, reloadedSinks, Topology, type ReloadPlan, type TopologyOptions } from './topology/run.js';

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
  /** Transform workers started before the configuration was read, so that they boot meanwhile; those no
   * transform needs are stopped. */
  earlyWorkers?: WorkerThread[];
}

/** The host name events are stamped with: SVC_HOSTNAME, else the machine's. */
export function hostName(): string {
  return process.env.SVC_HOSTNAME || osHostname();
}

/** Loads (secrets resolved) and validates the configuration; throws ConfigError with every problem. */
export async function loadPipelineConfig(
  options: Pick<PipelineOptions, 'locations' | 'interpolate' | 'allowEmptyConfig' | 'env'>,
): Promise<Config> {
  const raw = await loadConfigWithSecrets(options.locations, { env: options.env, interpolate: options.interpolate });
  const { config, errors } = validateConfig(raw, await componentRegistry(raw), {
    allowEmpty: options.allowEmptyConfig,
  });
  if (!config) throw new ConfigError(errors);
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
    proxy: component.proxy,
  });
  // A table's sink and source have its options: a reload that changes them rebuilds both, on the table that
  // loadEnrichmentTables gave (new, or kept when only `inputs` changed).
  const tableSpecs = [...config.enrichment_tables.values()].flatMap((table) =>
    (enrichmentTableDefinition(table.type).components?.(table.options) ?? []).map(
      (component): ComponentSpec => ({
        id: component.kind === 'sink' ? table.id : component.id,
        kind: component.kind,
        type: component.definition.type,
        definition: component.definition,
        options: table.options,
        inputs: component.kind === 'sink' ? component.inputs : [],
      }),
    ),
  );
  return [
    ...[...config.sources.values()].map((c) => spec(c, 'source')),
    ...[...config.transforms.values()].map((c) => spec(c, 'transform')),
    ...[...config.sinks.values()].map((c) => spec(c, 'sink')),
    ...tableSpecs,
  ];
}

/** The sink and source ids of the memory tables, each with its table. */
function memoryTables(tables: ReadonlyMap<string, LoadedTable>): Map<string, MemoryTable> {
  const byComponent = new Map<string, MemoryTable>();
  for (const { memory } of tables.values()) {
    if (memory === undefined) continue;
    byComponent.set(memory.data.id, memory);
    if (memory.options.source_config) byComponent.set(memory.options.source_config.source_key, memory);
  }
  return byComponent;
}

/** Sends each memory table's flushes to the threads of `executor`. */
function publishMemoryTables(tables: ReadonlyMap<string, LoadedTable>, executor: TransformExecutor): void {
  for (const { memory } of tables.values()) memory?.publishTo((changes) => executor.publishMemoryTableChanges(changes));
}

/** Closes the memory tables of `tables` that `kept` does not hold. */
function closeMemoryTables(tables: ReadonlyMap<string, LoadedTable>, kept: ReadonlyMap<string, LoadedTable>): void {
  for (const [id, { memory }] of tables) if (memory !== undefined && kept.get(id)?.memory !== memory) memory.close();
}

export interface BuiltPipeline {
  topology: Topology;
  /** The running configuration and its graph (a reload replaces them). */
  graph: Graph;
  metrics: MetricsRegistry;
  config: Config;
  executor: TransformExecutor;
  /** The running configuration's enrichment tables, by id (a reload loads again those that changed). */
  enrichmentTables: Map<string, LoadedTable>;
}

/** The topology graph of a validated configuration; throws ConfigError with every graph problem. */
export function pipelineGraph(config: Config, specs: ComponentSpec[] = componentSpecs(config)): Graph {
  try {
    return buildGraph(specs, config.global.wildcard_matching);
  } catch (error) {
    if (error instanceof TopologyError) throw new ConfigError(error.errors);
    throw error;
  }
}

/** Transform workers a configuration can use: no more than its transforms can (a concurrent one uses them all),
 * since an idle worker costs start-up time and memory. */
function usableWorkers(config: Config, threads: number): number {
  const usable = [...config.transforms.values()].reduce(
    (total, transform) => total + (transformDefinition(transform.type).concurrent ? threads : 1),
    0,
  );
  return Math.min(threads, usable);
}

/** How the topology runs the components of `config`. */
function topologyOptions(
  config: Config,
  options: PipelineOptions,
  metrics: MetricsRegistry,
  executor: TransformExecutor,
  tables: ReadonlyMap<string, LoadedTable>,
): TopologyOptions {
  return {
    sinkBuffer: (id) => {
      // A memory table's sink has the default buffer, as Vector's.
      const buffer = config.sinks.get(id)?.buffer ?? sinkBufferSchema.parse(undefined);
      return buffer.type === 'memory'
        ? {
            maxEvents: buffer.max_events ?? Number.MAX_SAFE_INTEGER,
            maxBytes: buffer.max_size,
            whenFull: buffer.when_full,
          }
        : { type: 'disk', maxEvents: Number.MAX_SAFE_INTEGER, maxBytes: buffer.max_size, whenFull: buffer.when_full };
    },
    sinkAcknowledges: (id) =>
      config.sinks.get(id)?.acknowledgements?.enabled ?? config.global.acknowledgements.enabled ?? false,
    transformBufferEvents: 2 * options.chunkSize,
    env: {
      globals: config.global,
      chunkSize: options.chunkSize,
      maxDecompressedSize: options.maxDecompressedSize,
      hostname: hostName(),
      metrics,
      logHub: options.logHub,
      enrichmentTables: [...config.enrichment_tables.keys()],
      memoryTables: memoryTables(tables),
    },
    log: options.log,
    executor,
  };
}

/** Build failures named like the validation errors: file, section and id. */
function buildErrors(config: Config, error: BuildError): ConfigError {
  return new ConfigError(
    error.failures.map(({ spec, message }) => {
      const section = KIND_SECTION[spec.kind] as 'sources' | 'transforms' | 'sinks';
      const component = config[section].get(spec.id);
      if (component !== undefined) return `${component.file}: ${section}.${spec.id}: ${message}`;
      // A memory table's sink or source: the table, whose options are theirs.
      const table = [...config.enrichment_tables.values()].find((table) => table.options === spec.options)!;
      return `${table.file}: enrichment_tables.${table.id}: ${message}`;
    }),
  );
}

/**
 * Builds every component of a validated configuration; throws ConfigError (graph or build problems). The
 * warnings (graph, options not acted on) are logged, unless the caller built the graph and passes it (it
 * reports them itself).
 */
export async function buildPipeline(config: Config, options: PipelineOptions, built?: Graph): Promise<BuiltPipeline> {
  const graph = built ?? pipelineGraph(config);
  if (!built) for (const warning of graph.warnings) options.log.warn(warning);
  const metrics = new MetricsRegistry({ expiry: metricExpiry(config.global) });
  const enrichmentTables = await loadEnrichmentTables(config, metrics);
  const workers = usableWorkers(config, options.threads);
  const early = options.earlyWorkers ?? [];
  for (const unused of early.splice(workers)) void unused.terminate();
  const refreshPeriod = config.global.metrics_storage_refresh_period;
  const metricsFeed =
    refreshPeriod === undefined ? undefined : { snapshot: () => metrics.snapshot(), periodMs: refreshPeriod * 1000 };
  // A worker joining later would miss the memory tables' changes made before it (each flush sends its own).
  const startAll = [...enrichmentTables.values()].some((table) => table.memory !== undefined);
  const executor =
    options.threads > 0
      ? new WorkerExecutor(workers, early, metricsFeed, startAll)
      : new InlineExecutor(transformDefinition, metricsFeed);
  executor.publishEnrichmentTables([...enrichmentTables.values()].map((table) => table.data));
  publishMemoryTables(enrichmentTables, executor);
  try {
    const topology = await Topology.build(graph, topologyOptions(config, options, metrics, executor, enrichmentTables));
    return { topology, graph, metrics, config, executor, enrichmentTables };
  } catch (error) {
    if (error instanceof BuildError) throw buildErrors(config, error);
    throw error;
  }
}

/** What a reload changed: the components added and removed (those changed keep their ids). */
export interface ReloadChanges {
  added: ComponentSpec[];
  removed: ComponentSpec[];
}

/**
 * Reads the configuration again and swaps what changed into the running pipeline (`Topology.prepareReload`):
 * resolves with what changed, or undefined when the new configuration was rejected (a load, graph or build
 * failure, a changed global option, or an unhealthy sink where healthy ones are required); the running one
 * then goes on untouched. Logs and counts either outcome as Vector does.
 */
export async function reloadPipeline(
  built: BuiltPipeline,
  options: PipelineOptions,
): Promise<ReloadChanges | undefined> {
  const { log } = options;
  const rejected = (code: 'config_load' | 'reload', message: string, problems: readonly string[] = []) => {
    log.error(message, {
      error_code: code,
      error_type: 'configuration_failed',
      stage: 'processing',
      internal_log_rate_limit: false,
    });
    for (const problem of problems) log.error(`Configuration error: ${problem}`, { internal_log_rate_limit: false });
    if (code === 'config_load') built.metrics.counter('config_load_errors_total').increment();
    built.metrics
      .counter('component_errors_total', { error_code: code, error_type: 'configuration_failed', stage: 'processing' })
      .increment();
    return undefined;
  };
  // Every reload is logged, however often: an operator reads them to know which configuration runs.
  log.info('Reloading running topology with new configuration.', { internal_log_rate_limit: false });
  let config: Config;
  let graph: Graph;
  try {
    config = await loadPipelineConfig(options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return rejected('config_load', 'Failed to load config files, reload aborted.', error.errors);
  }
  const { api: _oldApi, ...oldGlobal } = built.config.global;
  const { api: _newApi, ...newGlobal } = config.global;
  if (!isDeepStrictEqual(oldGlobal, newGlobal))
    return rejected(
      'reload',
      "Global options can't be changed while reloading config file; reload aborted. Please restart svc to reload the global options.",
    );
  try {
    graph = pipelineGraph(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return rejected('reload', 'Reload was triggered but failed.', error.errors);
  }
  for (const warning of graph.warnings) log.warn(warning);
  let enrichmentTables: Map<string, LoadedTable>;
  try {
    enrichmentTables = await loadEnrichmentTables(config, built.metrics, built.enrichmentTables);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return rejected('reload', 'Reload was triggered but failed.', error.errors);
  }
  built.executor.grow(usableWorkers(config, options.threads));
  let plan: ReloadPlan;
  try {
    plan = await built.topology.prepareReload(
      graph,
      topologyOptions(config, options, built.metrics, built.executor, enrichmentTables),
    );
  } catch (error) {
    closeMemoryTables(enrichmentTables, built.enrichmentTables);
    if (!(error instanceof BuildError)) throw error;
    return rejected('reload', 'Reload was triggered but failed.', buildErrors(config, error).errors);
  }
  if (config.global.healthchecks.enabled) {
    // A memory table's sink has no healthcheck.
    const sinks = [...reloadedSinks(plan)].filter(([id]) => config.sinks.has(id));
    const checks = sinks.map(async ([id, sink]) => {
      const check = boundedHealthcheck(config.sinks.get(id)!, sink);
      if (check === undefined) return undefined;
      try {
        await check();
        log.info('Healthcheck passed.', { component_id: id, internal_log_rate_limit: false });
        return undefined;
      } catch (error) {
        const message = `Healthcheck failed: ${error instanceof Error ? error.message : String(error)}`;
        const type = config.sinks.get(id)!.type;
        log.error(message, {
          component_id: id,
          component_kind: 'sink',
          component_type: type,
          internal_log_rate_limit: false,
        });
        return `sinks.${id}: ${message}`;
      }
    });
    const failures = (await Promise.all(checks)).filter((failure) => failure !== undefined);
    if (failures.length > 0 && (options.requireHealthy ?? config.global.healthchecks.require_healthy)) {
      await built.topology.abandonReload(plan);
      closeMemoryTables(enrichmentTables, built.enrichmentTables);
      return rejected(
        'reload',
        'Reload was triggered but failed: sinks unhealthy and healthy sinks are required.',
        failures,
      );
    }
  }
  built.topology.commitReload(plan);
  const tablesChanged =
    enrichmentTables.size !== built.enrichmentTables.size ||
    [...enrichmentTables].some(([id, table]) => built.enrichmentTables.get(id)?.data !== table.data);
  if (tablesChanged) built.executor.publishEnrichmentTables([...enrichmentTables.values()].map((table) => table.data));
  publishMemoryTables(enrichmentTables, built.executor);
  closeMemoryTables(built.enrichmentTables, enrichmentTables);
  built.enrichmentTables = enrichmentTables;
  built.config = config;
  built.graph = graph;
  const paths = [...options.locations.files.map((file) => file.path), ...options.locations.dirs];
  log.info('svc has reloaded.', { path: paths.join(','), internal_log_rate_limit: false });
  built.metrics.counter('reloaded_total').increment();
  return { added: plan.added, removed: plan.removed };
}

/** The sink's healthcheck bounded by its `healthcheck.timeout`; undefined when disabled or the type has none. */
export function sinkHealthcheck(built: BuiltPipeline, id: string): (() => Promise<void>) | undefined {
  const sink = built.config.sinks.get(id);
  const check = built.topology.sinkHealthcheck(id);
  return sink && check && boundedHealthcheck(sink, { healthcheck: check });
}

function boundedHealthcheck(
  config: ComponentConfig,
  sink: Pick<Sink, 'healthcheck'>,
): (() => Promise<void>) | undefined {
  if (!config.healthcheck?.enabled || sink.healthcheck === undefined) return undefined;
  const timeoutMs = (config.healthcheck.timeout ?? 10) * 1000;
  return () =>
    withTimeout(
      sink.healthcheck!({ uri: config.healthcheck!.uri }),
      timeoutMs,
      `healthcheck timed out after ${timeoutMs / 1000} s`,
    );
}

/** Runs the sinks' healthchecks; returns the failures (already logged). */
export async function runHealthchecks(built: BuiltPipeline, log: Logger): Promise<string[]> {
  if (!built.config.global.healthchecks.enabled) return [];
  const failures: string[] = [];
  await Promise.all(
    [...built.config.sinks.values()].map(async (sink) => {
      const check = sinkHealthcheck(built, sink.id);
      if (check === undefined) return;
      try {
        await check();
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
