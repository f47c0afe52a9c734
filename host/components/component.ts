// What a component type is to the host: its option schema and how to build it. One file per type under
// host/components/{sources,transforms,sinks}/ exports one definition; host/components/registry.ts lists them.
//
// Events travel as batches (host/topology/batch.ts), never as one JS object per event. A source turns bytes
// into batches, a transform turns a batch into batches on its outputs, a sink turns batches into bytes.

import type { EventBatch, EventKind } from '../topology/batch.js';
import type { ComponentTelemetry } from '../telemetry/component.js';
import type { LogHub, Logger } from '../log.js';
import type { MetricsRegistry } from '../telemetry/metrics.js';
import type { ProxyOptions } from '../config/common.js';
import type { GlobalOptions } from '../config/global.js';
import type { OptionsSchema } from '../config/schema.js';
import type { EncodeOptions } from '../../runtime/engine.js';
import type { SinkEncoder } from './support/encoding.js';
import type { EnrichmentTableData } from '../enrichment/tables.js';
import type { MemoryTable } from '../enrichment/memory-table.js';

export type ComponentKind = 'source' | 'transform' | 'sink';

/** An output port: `undefined` is the component's default output (named by its id), else `<id>.<name>`. */
export interface OutputPort {
  name: string | undefined;
  /** Event kinds that can leave through it. */
  kinds: readonly EventKind[];
}

/** Everything a component gets from the process, whatever its kind. */
export interface ComponentEnv {
  /** The component id (the key under `sources`/`transforms`/`sinks`). */
  id: string;
  globals: GlobalOptions;
  log: Logger;
  telemetry: ComponentTelemetry;
  /** Events per batch a source should aim for (`--chunk-size-events`). */
  chunkSize: number;
  /** Cap on bytes after decompression (`--max-decompressed-size-bytes`). */
  maxDecompressedSize: number;
  /** Sources and sinks: their own `proxy` table, when set (support/proxy.ts puts it over the global one). */
  proxy?: ProxyOptions;
  /** Host name for `log_schema.host_key`. */
  hostname: string;
  /** The process's metrics, which `internal_metrics` emits. */
  metrics: MetricsRegistry;
  /** The process's log records, which `internal_logs` subscribes to. */
  logHub: LogHub;
  /** The names of the configuration's enrichment tables, which its remap programs may look up. */
  enrichmentTables?: readonly string[];
  /** The memory tables by the ids of their sinks and sources (`EnrichmentTableDefinition.components`). */
  memoryTables?: ReadonlyMap<string, MemoryTable>;
  /** Sources: the one consumer of the source's output decodes frames itself, so streams may send whole
   * frames undecoded (`EventBatch.frames`). */
  consumerDecodes?: boolean;
  /** Sources that support end-to-end acknowledgements: a sink downstream acknowledges, so each batch sent
   * carries a finalizer (`EventBatch.finalizer`) and the source waits for it before it counts the events as
   * delivered (advances a checkpoint, answers a request). */
  acknowledgements?: boolean;
}

interface DefinitionBase<Options> {
  type: string;
  /** One line for `svc list` and `svc generate`. */
  description: string;
  /** The component-specific options, a strict object (common ones such as `inputs`, `buffer` are handled by
   * the config layer). */
  options: OptionsSchema<Options>;
  /** Files it reads when built, besides the configuration (a remap transform's `file`): a reload rebuilds it
   * when one of them changed, and `--watch-config` watches them. */
  files?(options: Options): string[];
  /** Common options it validates itself, having fields of its own in them (config/schema.ts). */
  ownCommon?: readonly string[];
}

// ---- sources -------------------------------------------------------------------------------------------

export interface SourceContext {
  /** Hands a batch to every consumer of `output` (default output when undefined); resolves once they all
   * accepted it, so awaiting it is the backpressure a source must honour before reading more. */
  send(batch: EventBatch, output?: string): Promise<void>;
  /** Aborted when the process shuts down: stop reading, send what was read, then return. */
  shutdown: AbortSignal;
}

export interface Source {
  /** Produces events until its input ends or `shutdown` aborts; resolves when it has sent everything. */
  run(context: SourceContext): Promise<void>;
  /** With acknowledgements: resolves once every batch it sent was acknowledged and acted on (checkpoint
   * saved, request answered). Called after `run` resolved and the source's outputs closed, so sinks drain. */
  acknowledged?(): Promise<void>;
}

export interface SourceDefinition<Options = unknown> extends DefinitionBase<Options> {
  kind: 'source';
  outputs(options: Options): OutputPort[];
  /** Prepares the source (opens files, binds sockets): a failure here stops the start-up before anything runs. */
  build(options: Options, env: ComponentEnv): Promise<Source>;
}

// ---- transforms ----------------------------------------------------------------------------------------

/** What one batch through a transform (or a `flush`) gave: batches per output, and what it cost. */
export interface TransformResult {
  /** `tickets`: set by a transform that keeps events (`flushPeriodMs`): the input batches (`EventBatch.ticket`)
   * whose events the batch holds, whose finalizers it then carries; without it, the batch holds the input's. */
  outputs: Array<{ output: string | undefined; batch: EventBatch; tickets?: number[] }>;
  /** A transform that keeps events: it kept some of this input batch's for a later output (its finalizer is
   * held until they leave), and `releases` the tickets of earlier inputs it no longer keeps any event of. */
  retains?: boolean;
  releases?: number[];
  /** Events dropped on purpose (filter, sample, throttle) or not (remap errors with drop_on_error). */
  /** `key`: also counted in `events_discarded_total` tagged with it (throttle's per-key option). */
  discarded?: Array<{ count: number; intentional: boolean; reason: string; key?: string }>;
  /** `tags`: more tags of `component_errors_total` than `error_type` and `stage` (Vector's `error_code`, `field`). */
  errors?: Array<{ count: number; errorType: string; stage: string; message: string; tags?: Record<string, string> }>;
  /** Problems logged as warnings (a message of fixed text, the detail in fields), not counted: Vector's `warn!`. */
  warnings?: Array<{ message: string; fields: Record<string, string | number | boolean> }>;
  /** Increments of the component's own counters (tagged as its other metrics), e.g. reduce's
   * `stale_events_flushed_total`. */
  counters?: Array<{ name: string; count: number; tags?: Record<string, string> }>;
  /** Values of the component's own gauges, e.g. tag_cardinality_limit's `tag_cardinality_tracked_keys`. */
  gauges?: Array<{ name: string; value: number }>;
  /** Remap `log()` calls made while processing the batch; `position`: the call's byte offset in its program. */
  logs?: Array<{ level: 'trace' | 'debug' | 'info' | 'warn' | 'error'; message: string; position: number }>;
  /** When the input was frames (`EventBatch.frames`): the events they decoded into, and the frames that
   * failed to decode (the source's errors). */
  decoded?: { count: number; errors: string[] };
  /** When the default output was encoded for its sink: the events the encoder left out, and why. */
  encodeFailures?: { count: number; message: string };
}

/** A transform's per-instance state; lives in a worker thread, so it gets no `ComponentEnv`. */
export interface TransformRunner {
  /** `encode`: the encoding of the one sink the default output feeds; a runner may return that output
   * encoded (`EventBatch.encoded`) instead of as a batch. */
  process(batch: EventBatch, encode?: EncodeOptions): TransformResult;
  /** A transform that keeps events (`flushPeriodMs`): emits what is due by now or, when `ended` (its input
   * has ended: shutdown, or a reload replaced it), everything it keeps. */
  flush?(ended: boolean): TransformResult;
}

export interface TransformDefinition<Options = unknown, Plan = unknown> extends DefinitionBase<Options> {
  kind: 'transform';
  /** Each batch is processed on its own, without state carried between batches: batches may then run on
   * several workers at once (outputs keep their order), as Vector runs its function transforms. */
  concurrent?: boolean;
  /** Set by a transform that keeps events between batches (reduce), so not `concurrent`: the topology calls
   * its runner's `flush` every this many milliseconds, and once when its input has ended. */
  flushPeriodMs?(options: Options): number;
  /**
   * Whether its worker takes over its neighbours' codec work (host/topology/run.ts `fusedEdges`): decodes the
   * frames of a source that feeds only it (`EventBatch.frames`), and encodes its default output for a sink it
   * alone feeds (`process`'s `encode`), in the one wasm call that runs its program.
   */
  codecWork?(options: Options): boolean;
  /** Event kinds it accepts. */
  inputs(options: Options): readonly EventKind[];
  outputs(options: Options, id: string): OutputPort[];
  /**
   * Runs on the main thread at start-up: compiles programs and checks what the schema cannot. The plan must
   * survive `structuredClone` (plain data and `WebAssembly.Module`s), because `create` runs in a worker.
   */
  prepare(options: Options, env: ComponentEnv): Promise<Plan>;
  /** In the thread that runs the transform; async where it instantiates programs (their JS functions load first). */
  create(plan: Plan): TransformRunner | Promise<TransformRunner>;
}

// ---- sinks ---------------------------------------------------------------------------------------------

export interface Sink {
  /** Delivers a batch; resolves when it is written (or given up on, counted as errors). Releases the batch's
   * finalizer, if any, once: `delivered` when the events are durably taken, `errored` when given up on; it
   * may do so after resolving (a batch gathered for a later request). A write that rejects has not. */
  write(batch: EventBatch): Promise<void>;
  /** Set when the sink encodes every batch whole with this encoder, and takes batches already `encoded`
   * with its options: a transform in front of it may then encode for it. */
  batchEncoder?: SinkEncoder;
  /** Flushes and releases everything; called once after the last `write`. */
  close(): Promise<void>;
  /** The graceful shutdown limit ran out: stops at once (requests, retries) and returns how many events
   * written to it were neither delivered nor given up on. */
  kill?(): number;
  /** Resolves when the destination is reachable; rejects with the reason otherwise. */
  healthcheck?(options: HealthcheckOptions): Promise<void>;
}

/** The sink's common `healthcheck` options that say what to check (`enabled` and `timeout` are the caller's). */
export interface HealthcheckOptions {
  /** `healthcheck.uri`: where HTTP sinks send their healthcheck request. */
  uri?: string;
}

export interface SinkDefinition<Options = unknown> extends DefinitionBase<Options> {
  kind: 'sink';
  inputs(options: Options): readonly EventKind[];
  build(options: Options, env: ComponentEnv): Promise<Sink>;
}

// ---- enrichment tables ---------------------------------------------------------------------------------

/** What loading an enrichment table gets from the process. */
interface EnrichmentTableEnv {
  id: string;
  globals: GlobalOptions;
  /** For the table's own metrics (a memory table's). */
  metrics: MetricsRegistry;
}

/** A component of the graph an enrichment table is too (a memory table's sink and source). */
type EnrichmentTableComponent<Options> =
  /** The sink, named by the table. */
  | { kind: 'sink'; definition: SinkDefinition<Options>; inputs: readonly string[] }
  /** The source, named `id`. */
  | { kind: 'source'; id: string; definition: SourceDefinition<Options> };

/** An enrichment table type (host/components/enrichment_tables/): not a node of the graph, but data the remap
 * programs look up, loaded once on the main thread and shared with the transform workers. */
export interface EnrichmentTableDefinition<Options = unknown, Loaded = EnrichmentTableData | MemoryTable>
  extends DefinitionBase<Options> {
  kind: 'enrichment_table';
  /** Reads the table (or creates the memory table the pipeline writes); rejects with a message naming the
   * option at fault (`option "file.path": …`). */
  load(options: Options, env: EnrichmentTableEnv): Promise<Loaded>;
  /** The components it adds to the graph, which share the table (its options are theirs). */
  components?(options: Options): EnrichmentTableComponent<Options>[];
}

// biome-ignore lint/suspicious/noExplicitAny: any definition, whatever its options and plan (variance)
export type ComponentDefinition = SourceDefinition<any> | TransformDefinition<any, any> | SinkDefinition<any>;
