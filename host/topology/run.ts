// A running topology: every component built before anything starts, then one loop per transform and sink
// pulling batches from its buffer, sources pushing into their consumers' buffers. Backpressure is the
// buffers' `block`; shutdown stops the sources and lets everything already read drain through the sinks.
// A reload (`prepareReload`, then `commitReload`) rebuilds the components whose configuration changed while
// the others keep running: a replaced or removed component drains what it holds before it goes, a changed
// sink keeps its buffer, and nothing is swapped until every new component was built.

import type { ComponentEnv, HealthcheckOptions, Sink, Source, TransformResult } from '../components/component.js';
import type { Logger } from '../log.js';
import { BufferUtilization, SinkBufferTelemetry } from '../telemetry/buffer.js';
import { ComponentTelemetry, DEFAULT_OUTPUT_TAG } from '../telemetry/component.js';
import { SourceLag } from '../telemetry/source-lag.js';
import { BatchNotifier, concatBatches, joinFinalizers, releaseBytes, type EventBatch } from './batch.js';
import { BatchBuffer, type BufferLimits } from './buffer.js';
import { DiskBuffer, type DiskBufferObserver } from './disk-buffer.js';
import type { StageResult, TransformExecutor } from './executor.js';
import { outputId, type ComponentSpec, type Graph } from './graph.js';
import { Utilization } from './utilization.js';
import { TapHub } from './tap.js';
import { reportDecodeErrors } from '../components/support/decoding.js';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/** Calls queued to each worker of a transform. Two left the workers idle a third of the time while this
 * thread read and wrote (S1 through stdin → remap → console, two workers on two cores); four keep them busy. */
const CALLS_PER_WORKER = 4;
/** Batches queued in a transform's buffer go to its worker together, up to this many per call: a hop between
 * threads (a message each way, their wake-ups) costs about what running a few hundred events does. */
const BATCHES_PER_CALL = 4;
/** The longest delay Node's timers take (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TopologyOptions {
  /** The buffer in front of each sink (`buffer.*` of its config); in memory unless `type` is disk. */
  sinkBuffer(id: string): BufferLimits & { type?: 'memory' | 'disk' };
  /** Whether the sink acknowledges what it delivers (its `acknowledgements.enabled`, else the global one):
   * the sources feeding it then wait for it. */
  sinkAcknowledges(id: string): boolean;
  /** Events a transform's input buffer holds. */
  transformBufferEvents: number;
  /** Everything a component gets from the process, but its id, logger and telemetry. */
  env: Omit<ComponentEnv, 'id' | 'log' | 'telemetry'>;
  log: Logger;
  executor: TransformExecutor;
}

/** Components that failed to build, each with its message. */
export class BuildError extends Error {
  constructor(readonly failures: Array<{ spec: ComponentSpec; message: string }>) {
    super(failures.map(({ spec, message }) => `${spec.kind} "${spec.id}": ${message}`).join('\n'));
  }
}

interface Node {
  spec: ComponentSpec;
  /** A transform's name in the executor: its id, or `<id>#<reload>` when built by a reload (the one it
   * replaces may still be draining). */
  runner?: string;
  telemetry: ComponentTelemetry;
  log: Logger;
  /** Of a transform or sink (a source has no input to wait for). */
  utilization?: Utilization;
  /** Input buffer of a transform or sink (a sink's may be on disk). */
  buffer?: BatchBuffer | DiskBuffer;
  /** Where each output (`<id>` or `<id>.<port>`) sends: its consumers. */
  routes: Map<string, Node[]>;
  /** Still sending into its routes: a source whose run has not ended, a transform whose loop has not. */
  sending: boolean;
  /** A source's own stop (a reload replaces or removes it), besides the topology's shutdown. */
  stop?: AbortController;
  /** A source's `run` has ended. */
  ran?: Promise<void>;
  /** Its loop (a source's run and wait for acknowledgements) has started and not ended. */
  running?: boolean;
  /** The files it read when built (`contentOfFiles`). */
  filesRead?: string;
  /** The source outputs sending into `buffer`: each measures its level on every change. */
  sourceOutputs: Array<{ record(): void }>;
  source?: Source;
  sink?: Sink;
  /** A sink that acknowledges: it releases the finalizers of the batches it writes once they are delivered. */
  acknowledges?: boolean;
  /** A transform fed frames by this source (its one consumer): the source's decoding is counted here. */
  framesFrom?: Node;
  /** A transform whose default output feeds only this sink: it may encode for it. */
  encodesFor?: Node;
  /** The transforms that run after this one in the same worker call, each fed the previous one's default
   * output (`chainedTransforms`); set on the first of a chain. */
  chain?: Node[];
  /** Set on the other transforms of a chain: they have no loop of their own. */
  chained?: boolean;
  /** A transform that keeps events between batches: how often its runner flushes (`flushPeriodMs`). */
  flushPeriodMs?: number;
  /** Of such a transform: by ticket (`EventBatch.ticket`), the finalizers of the input batches it keeps
   * events of, each held once until it releases the ticket. */
  held?: Map<number, BatchNotifier>;
}

/** What a reload built, not yet running: `commitReload` swaps it in, `abandonReload` throws it away. */
export interface ReloadPlan {
  graph: Graph;
  options: TopologyOptions;
  /** New nodes by id: added components, and the replacements of changed ones. */
  built: Map<string, Node>;
  /** Sinks that keep their node and buffer and take a new sink (their buffer type did not change). */
  swappedSinks: Map<string, { spec: ComponentSpec; sink: Sink }>;
  /** Running sources stopped so their replacements could bind what they had: restarted by `abandonReload`. */
  stoppedSources: Node[];
  removed: ComponentSpec[];
  added: ComponentSpec[];
}

/** The sinks a reload built (added, replacing or taking over a changed one), by id: their healthchecks run
 * before it is committed. */
export function reloadedSinks(plan: ReloadPlan): Map<string, Sink> {
  const sinks = new Map<string, Sink>();
  for (const [id, node] of plan.built) if (node.sink) sinks.set(id, node.sink);
  for (const [id, { sink }] of plan.swappedSinks) sinks.set(id, sink);
  return sinks;
}

export class Topology {
  /** The running component of each id. */
  private readonly nodes = new Map<string, Node>();
  /** Components a reload replaced or removed, draining what they still hold. */
  private readonly retiring = new Set<Node>();
  private readonly shutdown = new AbortController();
  private started = false;
  /** Loops (and source runs) not yet ended; `run` resolves when none is left. */
  private loops = 0;
  private idle: Array<() => void> = [];
  /** Set while a reload stops and rebuilds sources: a buffer whose producers all ended stays open until the
   * reload is committed or abandoned. */
  private reloading = false;
  private reloads = 0;
  /** The last ticket given to a batch for a transform that keeps events. */
  private tickets = 0;
  /** Samples the events passing outputs for the API's taps. */
  readonly tap: TapHub;

  private constructor(
    private options: TopologyOptions,
    private currentGraph: Graph,
  ) {
    const { timezone, log_schema: schema } = options.env.globals;
    this.tap = new TapHub(currentGraph, {
      timezone,
      messageKey: schema.message_key,
      timestampKey: schema.timestamp_key,
    });
  }

  /** Builds every component (sources, transform plans and runners, sinks); nothing runs yet. A failure
   * anywhere stops the transform workers and rejects with every problem found (the process then exits,
   * which releases what sources and sinks bound). */
  static async build(graph: Graph, options: TopologyOptions): Promise<Topology> {
    const topology = new Topology(options, graph);
    const { nodes, failures } = await topology.buildNodes(graph, options, [...graph.components.values()]);
    if (failures.length > 0) {
      await topology.close();
      throw new BuildError(failures);
    }
    for (const node of nodes) topology.nodes.set(node.spec.id, node);
    topology.wire();
    return topology;
  }

  /** The graph of the running configuration. */
  get graph(): Graph {
    return this.currentGraph;
  }

  /** Sources of the running configuration (running or ended). */
  get sourceCount(): number {
    let count = 0;
    for (const node of this.nodes.values()) if (node.source) count++;
    return count;
  }

  /** Starts every loop (on the first call); resolves when no loop is left: every source ended and everything
   * drained. A reload that adds components after that starts them, and `run` waits for them again. */
  run(): Promise<void> {
    if (!this.started) {
      this.started = true;
      for (const node of this.nodes.values()) this.startLoop(node);
    }
    return this.loops === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /** `run`, then `close`: for a topology that is never reloaded. */
  async start(): Promise<void> {
    await this.run();
    await this.close();
  }

  /** Stops the sources; what they already sent drains through the sinks. */
  stop(): void {
    this.shutdown.abort();
  }

  /** The shutdown is forced: every sink stops at once, and what it and its buffer still held is counted
   * and logged as dropped. */
  kill(): void {
    for (const node of [...this.nodes.values(), ...this.retiring]) {
      if (node.sink === undefined) continue;
      const inSink = node.sink.kill?.() ?? 0;
      if (node.buffer instanceof DiskBuffer) {
        // What it holds, and what the sink held (not acknowledged), is read again at the next start.
        node.buffer.persistNow();
        continue;
      }
      const count = node.buffer!.eventCount + inSink;
      if (count === 0) continue;
      node.telemetry.discarded(count, false);
      node.log.error('Events dropped', {
        intentional: false,
        count,
        reason: 'The shutdown was forced before they were delivered.',
        internal_log_rate_limit: false,
      });
    }
  }

  /** Stops the transform workers (after the run, or when the topology never runs). */
  async close(): Promise<void> {
    for (const node of this.nodes.values()) node.utilization?.stop();
    await this.options.executor.close();
  }

  /** The sink's healthcheck, when its type has one. */
  sinkHealthcheck(id: string): ((options: HealthcheckOptions) => Promise<void>) | undefined {
    const sink = this.nodes.get(id)?.sink;
    return sink?.healthcheck ? (options) => sink.healthcheck!(options) : undefined;
  }

  get stopping(): boolean {
    return this.shutdown.signal.aborted;
  }

  /**
   * Builds what `graph` changes in the running topology: added components, and a new one for each changed
   * component (its configuration, its inputs, or the files it reads; or its place in a fused edge or chain).
   * A changed sink whose buffer keeps its type keeps its node and buffer and only gets a new sink. Changed
   * sources are stopped first (the new one may bind the same address); they are restarted as they were if the
   * reload is abandoned. Rejects with BuildError, having restored everything, when a component fails to build.
   */
  async prepareReload(graph: Graph, options: TopologyOptions): Promise<ReloadPlan> {
    const old = this.currentGraph;
    const filesRead = new Map([...this.nodes].map(([id, node]) => [id, node.filesRead]));
    const changed = changedComponents(old, graph, this.options, options, filesRead);
    const plan: ReloadPlan = {
      graph,
      options,
      built: new Map(),
      swappedSinks: new Map(),
      stoppedSources: [],
      removed: [...old.components.values()].filter((spec) => !graph.components.has(spec.id)),
      added: [...graph.components.values()].filter((spec) => !old.components.has(spec.id)),
    };
    this.reloads++;
    const rebuilt = [...graph.components.values()].filter((spec) => changed.has(spec.id));
    const [sources, others] = partition(rebuilt, (spec) => spec.kind === 'source');
    // A sink whose buffer keeps its type keeps its buffer: only the sink is built anew. Not one whose inputs
    // all ended: its buffer is closed (its loop drains it and ends), so a new node takes the new inputs.
    const [swapped, replaced] = partition(others, (spec) => {
      const node = this.nodes.get(spec.id);
      return (
        spec.kind === 'sink' &&
        node?.sink !== undefined &&
        node.buffer?.isClosed === false &&
        (options.sinkBuffer(spec.id).type ?? 'memory') === (node.buffer instanceof DiskBuffer ? 'disk' : 'memory')
      );
    });
    const failures: BuildError['failures'] = [];
    const first = await this.buildNodes(graph, options, replaced);
    failures.push(...first.failures);
    for (const node of first.nodes) plan.built.set(node.spec.id, node);
    await Promise.all(
      swapped.map(async (spec) => {
        const node = this.nodes.get(spec.id)!;
        try {
          const env = { ...options.env, id: spec.id, log: node.log, telemetry: node.telemetry, proxy: spec.proxy };
          const definition = spec.definition as Extract<ComponentSpec['definition'], { kind: 'sink' }>;
          plan.swappedSinks.set(spec.id, { spec, sink: await definition.build(spec.options, env) });
        } catch (error) {
          failures.push({ spec, message: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
    if (failures.length === 0 && sources.length > 0) {
      this.reloading = true;
      for (const spec of sources) {
        const node = this.nodes.get(spec.id);
        if (node?.source === undefined) continue;
        node.stop!.abort();
        plan.stoppedSources.push(node);
      }
      await Promise.all(plan.stoppedSources.map((node) => node.ran));
      const second = await this.buildNodes(graph, options, sources);
      failures.push(...second.failures);
      for (const node of second.nodes) plan.built.set(node.spec.id, node);
    }
    if (failures.length > 0) {
      await this.abandonReload(plan);
      throw new BuildError(failures);
    }
    return plan;
  }

  /** Swaps in what `prepareReload` built: from here on the new configuration runs. */
  commitReload(plan: ReloadPlan): void {
    if (this.stopping) {
      void this.abandonReload(plan);
      return;
    }
    for (const spec of plan.removed) this.retire(this.nodes.get(spec.id)!);
    for (const [id, node] of plan.built) {
      const previous = this.nodes.get(id);
      if (previous) this.retire(previous);
      this.nodes.set(id, node);
    }
    for (const [id, { spec, sink }] of plan.swappedSinks) {
      const node = this.nodes.get(id)!;
      node.spec = spec;
      node.sink = sink;
      node.filesRead = contentOfFiles(spec);
      node.acknowledges = plan.options.sinkAcknowledges(id);
      node.buffer!.resize(plan.options.sinkBuffer(id));
      // Its loop closes the old sink and goes on with this one (`runSink`).
      node.buffer!.interrupt();
    }
    this.currentGraph = plan.graph;
    this.options = plan.options;
    this.wire();
    this.tap.update(plan.graph);
    if (this.started) for (const node of plan.built.values()) this.startLoop(node);
    this.reloading = false;
    this.closeUnfed();
  }

  /** Throws away what `prepareReload` built and restarts the sources it stopped, as they were. */
  async abandonReload(plan: ReloadPlan): Promise<void> {
    for (const node of plan.built.values()) await this.discard(node);
    for (const { sink } of plan.swappedSinks.values()) await sink.close().catch(() => {});
    // Not while the topology shuts down: they would only stop again.
    const restart = this.stopping ? [] : plan.stoppedSources;
    const restarted = await this.buildNodes(
      this.currentGraph,
      this.options,
      restart.map((node) => node.spec),
    );
    for (const { spec, message } of restarted.failures)
      this.options.log.error(`Source "${spec.id}" could not be restarted after the failed reload: ${message}`, {
        error_code: 'recovery',
        error_type: 'configuration_failed',
        stage: 'processing',
      });
    for (const node of restart) this.retire(node);
    for (const node of restarted.nodes) this.nodes.set(node.spec.id, node);
    this.wire();
    if (this.started) for (const node of restarted.nodes) this.startLoop(node);
    this.reloading = false;
    this.closeUnfed();
  }

  /** Builds the nodes of `specs` (not yet wired nor running); the transforms built by a reload are named
   * apart from those they replace. */
  private async buildNodes(
    graph: Graph,
    options: TopologyOptions,
    specs: readonly ComponentSpec[],
  ): Promise<{ nodes: Node[]; failures: BuildError['failures'] }> {
    const fused = fusedEdges(graph);
    const waiting = acknowledgingSources(graph, options.sinkAcknowledges);
    const nodes: Node[] = [];
    const failures: BuildError['failures'] = [];
    await Promise.all(
      specs.map(async (spec) => {
        try {
          nodes.push(await this.buildNode(spec, options, fused.decodingSources.has(spec.id), waiting.has(spec.id)));
        } catch (error) {
          failures.push({ spec, message: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
    if (failures.length > 0) for (const node of nodes.splice(0)) await this.discard(node);
    return { nodes, failures };
  }

  /** `consumerDecodes`: a source whose one consumer decodes its frames (`fusedEdges`); `acknowledgements`: a
   * source that some acknowledging sink is downstream of (`acknowledgingSources`). */
  private async buildNode(
    spec: ComponentSpec,
    options: TopologyOptions,
    consumerDecodes: boolean,
    acknowledgements: boolean,
  ): Promise<Node> {
    const telemetry = new ComponentTelemetry(
      options.env.metrics,
      spec.id,
      spec.kind,
      spec.type,
      options.env.globals.telemetry.tags,
    );
    const log = options.log.child(`svc::${spec.kind}s::${spec.type}`, {
      component_kind: spec.kind,
      component_type: spec.type,
      component_id: spec.id,
    });
    const utilization = spec.kind === 'source' ? undefined : new Utilization(telemetry.gauge('utilization'));
    const node: Node = { spec, telemetry, log, utilization, routes: new Map(), sending: true, sourceOutputs: [] };
    // Before the build reads them: a change after it is seen by the next reload.
    node.filesRead = contentOfFiles(spec);
    const env: ComponentEnv = {
      ...options.env,
      id: spec.id,
      log,
      telemetry,
      consumerDecodes,
      acknowledgements,
      proxy: spec.proxy,
    };
    const definition = spec.definition;
    switch (definition.kind) {
      case 'source':
        node.source = await definition.build(spec.options, env);
        node.stop = new AbortController();
        return node;
      case 'transform': {
        const plan = await definition.prepare(spec.options, env);
        const runner = this.reloads === 0 ? spec.id : `${spec.id}#${this.reloads}`;
        await options.executor.create(runner, spec.type, plan, definition.concurrent);
        node.runner = runner;
        node.flushPeriodMs = definition.flushPeriodMs?.(spec.options);
        if (node.flushPeriodMs !== undefined) node.held = new Map();
        const limits: BufferLimits = { maxEvents: options.transformBufferEvents, whenFull: 'block' };
        node.buffer = new BatchBuffer(limits, this.bufferObserver(node, limits));
        return node;
      }
      case 'sink': {
        node.sink = await definition.build(spec.options, env);
        node.acknowledges = options.sinkAcknowledges(spec.id);
        const limits = options.sinkBuffer(spec.id);
        try {
          node.buffer =
            limits.type === 'disk'
              ? await this.openDiskBuffer(spec.id, limits, this.bufferObserver(node, limits))
              : new BatchBuffer(limits, this.bufferObserver(node, limits));
        } catch (error) {
          await node.sink.close().catch(() => {});
          throw error;
        }
        return node;
      }
    }
  }

  /** Releases a node that never ran: a transform's runner, a sink (closed), a source (run with its shutdown
   * already aborted, so it unbinds what it bound). */
  private async discard(node: Node): Promise<void> {
    if (node.runner) this.options.executor.remove(node.runner);
    if (node.buffer instanceof DiskBuffer) await node.buffer.shutdown();
    await node.sink?.close().catch(() => {});
    await node.source
      ?.run({ send: async (batch) => batch.finalizer?.release(), shutdown: AbortSignal.abort() })
      .catch(() => {});
  }

  /** A node leaves the running topology: a source stops; every node finishes what it holds (a transform or
   * sink once nothing sends into it any more), then goes. */
  private retire(node: Node): void {
    this.nodes.delete(node.spec.id);
    if (node.running) this.retiring.add(node);
    node.stop?.abort();
  }

  /** Sets every running node's routes, fused edges and chains from the graph. A retiring node keeps sending
   * where it did, to the running node of the same id when there is one. */
  private wire(): void {
    const graph = this.currentGraph;
    for (const node of this.nodes.values()) {
      node.routes = new Map();
      node.chain = undefined;
      node.chained = undefined;
      node.framesFrom = undefined;
      node.encodesFor = undefined;
      node.sourceOutputs = [];
    }
    for (const edge of graph.edges) {
      const from = this.nodes.get(edge.from)!;
      const key = outputId(edge.from, edge.output);
      from.routes.set(key, [...(from.routes.get(key) ?? []), this.nodes.get(edge.to)!]);
    }
    for (const node of this.retiring)
      for (const [key, consumers] of node.routes)
        node.routes.set(
          key,
          consumers.map((consumer) => this.nodes.get(consumer.spec.id) ?? consumer),
        );
    const fused = fusedEdges(graph);
    for (const [source, transform] of fused.decodingSources)
      this.nodes.get(transform)!.framesFrom = this.nodes.get(source);
    for (const [first, rest] of chainedTransforms(graph)) {
      const chain = rest.map((id) => this.nodes.get(id)!);
      this.nodes.get(first)!.chain = chain;
      for (const node of chain) node.chained = true;
    }
    for (const [transform, sink] of fused.encodingTransforms) {
      const sinkNode = this.nodes.get(sink)!;
      // A disk buffer keeps events, not one configuration's encoding of them.
      if (sinkNode.sink!.batchEncoder && !(sinkNode.buffer instanceof DiskBuffer))
        this.nodes.get(transform)!.encodesFor = sinkNode;
    }
    this.meterSourceOutputs(graph);
  }

  private startLoop(node: Node): void {
    let loop: Promise<void>;
    if (node.source) loop = this.runSource(node, node.source);
    else if (node.sink) loop = this.runSink(node);
    else if (!node.chained) loop = this.runTransform(node);
    else return;
    this.loops++;
    node.running = true;
    void loop.finally(() => {
      node.running = false;
      this.retiring.delete(node);
      // A transform a reload replaced or removed (and those chained after it) is gone from the workers too.
      for (const stage of [node, ...(node.chain ?? [])])
        if (stage.runner && this.nodes.get(stage.spec.id) !== stage) this.options.executor.remove(stage.runner);
      if (--this.loops === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }

  /** A sink's disk buffer, in `<data_dir>/buffer/v2/<sink id>/` (Vector's layout). */
  private async openDiskBuffer(id: string, limits: BufferLimits, observer: DiskBufferObserver): Promise<DiskBuffer> {
    const dataDir = this.options.env.globals.data_dir;
    try {
      return await DiskBuffer.open(join(dataDir, 'buffer', 'v2', id), limits, observer);
    } catch (error) {
      throw new Error(
        `disk buffer in data_dir "${dataDir}": ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The metrics of a transform's or sink's input buffer: a sink's `buffer_*`, a transform's
   * `transform_buffer_*`, and the `source_buffer_*` of the source outputs sending into it; a disk buffer's
   * recovery and unreadable records. */
  private bufferObserver(node: Node, limits: BufferLimits): DiskBufferObserver {
    const { metrics, globals } = this.options.env;
    const sinkBuffer = node.spec.kind === 'sink' ? new SinkBufferTelemetry(metrics, node.telemetry.tags) : undefined;
    const transformBuffer =
      node.spec.kind === 'transform'
        ? new BufferUtilization(
            metrics,
            'transform_buffer',
            node.telemetry.tags,
            limits.maxEvents,
            globals.buffer_utilization_ewma_alpha,
          )
        : undefined;
    const changed = (events: number) => {
      transformBuffer?.record(events);
      for (const output of node.sourceOutputs) output.record();
    };
    return {
      pushed(batch, events, bytes) {
        sinkBuffer?.received(batch.count, batch.bytes.byteLength, events, bytes);
        changed(events);
      },
      popped(batch, events, bytes) {
        sinkBuffer?.sent(batch.count, batch.bytes.byteLength, events, bytes);
        changed(events);
      },
      dropped: (batch) => {
        batch.finalizer?.release('errored');
        sinkBuffer?.discarded(batch.count, batch.bytes.byteLength);
        node.telemetry.discarded(batch.count, false);
        node.log.warn('Buffer is full: events dropped (when_full = drop_newest).', { count: batch.count });
      },
      recovered: (events, bytes) => sinkBuffer?.recovered(events, bytes),
      corrupted: ({ code, file, offset, bytes, events }) => {
        sinkBuffer?.corrupted(code, events, bytes);
        node.log.error(`Buffer record could not be read (${code}): ${bytes} bytes skipped.`, {
          error_code: code,
          file,
          offset,
          count: events,
          internal_log_rate_limit: false,
        });
      },
      syncFailed: (error) =>
        node.log.error(`Disk buffer sync failed: ${error instanceof Error ? error.message : String(error)}`, {
          internal_log_rate_key: 'disk_buffer_sync_failed',
        }),
    };
  }

  /** Vector's source buffer is the channel a source output sends into. Here an output sends straight into
   * its consumers' input buffers: the fullest of them is its level, the smallest limit its limit. */
  private meterSourceOutputs(graph: Graph): void {
    const { metrics, globals } = this.options.env;
    for (const node of this.nodes.values()) {
      if (!node.source) continue;
      for (const port of graph.ports.get(node.spec.id) ?? []) {
        const consumers = node.routes.get(outputId(node.spec.id, port.name)) ?? [];
        if (consumers.length === 0) continue;
        const buffers = consumers.map((consumer) => consumer.buffer!);
        const tags = { ...node.telemetry.tags, output: port.name ?? DEFAULT_OUTPUT_TAG };
        const maxEvents = Math.min(...buffers.map((buffer) => buffer.limits.maxEvents));
        const utilization = new BufferUtilization(
          metrics,
          'source_buffer',
          tags,
          maxEvents,
          globals.buffer_utilization_ewma_alpha,
        );
        const output = { record: () => utilization.record(Math.max(...buffers.map((buffer) => buffer.eventCount))) };
        for (const consumer of consumers) consumer.sourceOutputs.push(output);
      }
    }
  }

  private async runSource(node: Node, source: Source): Promise<void> {
    let ran!: () => void;
    node.ran = new Promise((resolve) => (ran = resolve));
    try {
      const { globals, metrics } = this.options.env;
      const lag = new SourceLag(metrics, node.telemetry.tags, globals.log_schema.timestamp_key);
      // The batches carry their source for the `source` tag only when that tag is asked for.
      const sourceId = globals.telemetry.tags.emit_source ? node.spec.id : undefined;
      const send = (batch: EventBatch, output?: string) => {
        // Frames are counted once decoded (`decodedFrames`), and their timestamps are not looked at.
        if (!batch.frames) {
          node.telemetry.received(batch.count, batch.bytes.byteLength);
          lag.record(batch);
        }
        return this.send(node, output, sourceId === undefined ? batch : { ...batch, sourceId });
      };
      const shutdown = AbortSignal.any([this.shutdown.signal, node.stop!.signal]);
      // A source may listen once per connection or stream it reads (past ten, Node warns of a leak).
      setMaxListeners(0, shutdown);
      await source.run({ send, shutdown });
    } catch (error) {
      node.telemetry.error('reader_failed', 'receiving');
      node.log.error(`Source failed: ${error instanceof Error ? error.message : String(error)}`, {}, error);
    } finally {
      this.finished(node);
      ran();
    }
    // Its outputs are closed: the sinks drain while it waits for the last acknowledgements.
    await source.acknowledged?.();
  }

  /** Keeps up to CALLS_PER_WORKER calls per worker running the transform, each on the batches queued when
   * it was made (up to BATCHES_PER_CALL): the next ones wait in the worker while this thread forwards the last
   * one's outputs, so neither waits on the other. Outputs leave in input order, each as soon as it and those
   * before it are ready. */
  private async runTransform(node: Node): Promise<void> {
    // A transform's input is a memory buffer (only sinks have disk buffers).
    const buffer = node.buffer as BatchBuffer;
    const inFlight = CALLS_PER_WORKER * this.options.executor.parallelism(node.runner!);
    let sent: Promise<void> = Promise.resolve();
    const unsent: Array<Promise<void>> = [];
    // A transform that keeps events flushes on a timer, its outputs forwarded in turn with the batches'.
    const flush = (ended: boolean) => {
      const flushed = this.flush(node, ended);
      sent = sent.then(async () => this.forward(node, await flushed));
      return sent;
    };
    let flushing = false;
    const timer =
      node.flushPeriodMs === undefined
        ? undefined
        : setInterval(
            () => {
              // A flush still being forwarded (its outputs wait for room downstream) is not stacked upon.
              if (flushing) return;
              flushing = true;
              void flush(false).finally(() => {
                flushing = false;
              });
            },
            Math.min(node.flushPeriodMs, MAX_TIMER_MS),
          );
    // The sources keep the process alive, not this.
    timer?.unref();
    for (let batch = await buffer.pop(); batch !== undefined; batch = await buffer.pop()) {
      const batches = [batch];
      for (let next; batches.length < BATCHES_PER_CALL && (next = buffer.popQueued()) !== undefined; )
        batches.push(next);
      // Named for a transform that keeps events: its result names the inputs whose events an output holds.
      const ticketed = node.held ? batches.map((b) => (b.finalizer ? { ...b, ticket: ++this.tickets } : b)) : batches;
      const results = this.process(node, ticketed);
      // What forwarding needs of each batch (their bytes go to the worker).
      const carried = ticketed.map(({ sourceId, finalizer, ticket }) => ({ sourceId, finalizer, ticket }));
      sent = sent.then(async () => {
        const stages = await results;
        for (const [i, { sourceId, finalizer, ticket }] of carried.entries())
          await this.forward(node, stages[i], { sourceId, finalizer, ticket });
      });
      unsent.push(sent);
      if (unsent.length >= inFlight) await unsent.shift();
    }
    clearInterval(timer);
    await sent;
    // Everything it keeps leaves before its outputs close.
    if (timer) await flush(true);
    for (const stage of [node, ...(node.chain ?? [])]) this.finished(stage);
  }

  /** The runner's `flush` as a stage of the transform (undefined when it failed: counted and logged); when
   * the input `ended`, one that failed loses what the transform kept, whose sources count it as errored. */
  private async flush(node: Node, ended: boolean): Promise<StageResult[] | undefined> {
    node.utilization!.start();
    try {
      return [{ result: await this.options.executor.flush(node.runner!, ended) }];
    } catch (error) {
      node.telemetry.error('transform_failed', 'processing');
      node.log.error(
        `Transform failed to flush: ${error instanceof Error ? error.message : String(error)}`,
        { internal_log_rate_key: 'transform_failed' },
        error,
      );
      if (ended) {
        for (const finalizer of node.held!.values()) finalizer.release('errored');
        node.held!.clear();
      }
      return undefined;
    } finally {
      node.utilization!.end();
    }
  }

  /** Batches through the transform (and the transforms chained after it), in one call; per batch, undefined
   * when it failed (counted and logged). */
  private async process(node: Node, batches: readonly EventBatch[]): Promise<Array<StageResult[] | undefined>> {
    let count = 0;
    for (const batch of batches) {
      // Frames are counted once decoded (`decodedFrames`).
      if (!batch.frames) node.telemetry.received(batch.count, batch.bytes.byteLength, batch.sourceId);
      count += batch.count;
    }
    // Read before the bytes are transferred to the worker (which detaches them here).
    const byteSizes = batches.map((batch) => batch.bytes.byteLength);
    const stages = [node, ...(node.chain ?? [])];
    const last = stages.at(-1)!;
    // A tap that wants an output the worker would keep (encoded for the sink, or passed on in the chain)
    // gets it back as a batch.
    const tapping = this.tap.active;
    const encode =
      last.encodesFor && !(tapping && this.tap.claim(last.spec.id, count))
        ? last.encodesFor.sink!.batchEncoder!.options
        : undefined;
    const keepPassedOn = tapping && stages.some((stage) => stage !== last && this.tap.claim(stage.spec.id, count));
    for (const stage of stages) stage.utilization!.start();
    try {
      const ids = stages.map((stage) => stage.runner!);
      const runs = await this.options.executor.processChain(ids, batches, encode, keepPassedOn);
      return runs.map((run, i) => {
        const batch = batches[i]!;
        if ('error' in run) return this.transformFailed(node, batch, run.error);
        const decoded = run.stages[0]!.result.decoded;
        if (decoded) this.decodedFrames(node, byteSizes[i]!, decoded, batch.sourceId);
        return run.stages;
      });
    } catch (error) {
      // The worker failed the whole call.
      return batches.map((batch) => this.transformFailed(node, batch, error));
    } finally {
      for (const stage of stages) stage.utilization!.end();
    }
  }

  /** A batch the transform failed on is lost, never the process: count it and go on with the next one. */
  private transformFailed(node: Node, batch: EventBatch, error: unknown): undefined {
    node.telemetry.error('transform_failed', 'processing', batch.count);
    node.telemetry.discarded(batch.count, false);
    node.log.error(
      `Transform failed on a batch of ${batch.count} events: ${error instanceof Error ? error.message : String(error)}`,
      { internal_log_rate_key: 'transform_failed' },
      error,
    );
    return undefined;
  }

  /** Frames a source sent undecoded were decoded by the transform: count the events they made as the
   * source's input and output and the transform's input, and the frames that failed as the source's errors. */
  private decodedFrames(
    node: Node,
    byteSize: number,
    decoded: NonNullable<TransformResult['decoded']>,
    sourceId: string | undefined,
  ): void {
    const source = node.framesFrom;
    if (source) {
      source.telemetry.received(decoded.count, byteSize);
      source.telemetry.sent(undefined, decoded.count, byteSize);
      reportDecodeErrors(source.telemetry, source.log, decoded.errors);
    }
    node.telemetry.received(decoded.count, byteSize, sourceId);
  }

  /**
   * Reports what a batch through a transform (and its chain), or a flush (no `input`), cost and sends the last
   * one's outputs on, each carrying the input's finalizer; the input's own reference is then released (an
   * input every event of which was dropped on purpose counts as delivered, as in Vector; one the transform
   * failed on as errored). A transform that keeps events names the inputs whose events it keeps and each
   * output holds by ticket: it holds their finalizers until it releases the ticket, and an output carries
   * those of the events merged into it, as Vector's reduced event carries the merged events' finalizers.
   */
  private async forward(
    node: Node,
    stages: StageResult[] | undefined,
    input: Pick<EventBatch, 'sourceId' | 'finalizer' | 'ticket'> = {},
  ): Promise<void> {
    const { sourceId, finalizer, ticket } = input;
    if (stages === undefined) {
      finalizer?.release('errored');
      return;
    }
    const nodes = [node, ...(node.chain ?? [])];
    for (const [i, { result, passedOn }] of stages.entries()) {
      const stage = nodes[i]!;
      this.account(stage, result);
      if (passedOn) {
        stage.telemetry.sent(undefined, passedOn.count, passedOn.byteSize, sourceId);
        nodes[i + 1]!.telemetry.received(passedOn.count, passedOn.byteSize, sourceId);
        if (passedOn.batch) this.tap.offer(stage.spec.id, passedOn.batch);
      }
      if (result.retains && finalizer && ticket !== undefined) {
        finalizer.hold();
        stage.held!.set(ticket, finalizer);
      }
      for (const { output, batch: out, tickets } of result.outputs) {
        if (out.count === 0) continue;
        let carried = finalizer;
        if (tickets === undefined) finalizer?.hold();
        else {
          const merged = tickets.map((t) => (t === ticket ? finalizer : stage.held!.get(t)));
          carried = joinFinalizers(merged.filter((f): f is BatchNotifier => f !== undefined));
        }
        await this.send(
          stage,
          output,
          sourceId === undefined && carried === undefined ? out : { ...out, sourceId, finalizer: carried },
        );
      }
      for (const released of result.releases ?? []) {
        stage.held!.get(released)?.release();
        stage.held!.delete(released);
      }
    }
    finalizer?.release();
  }

  /** Counts and logs what one transform discarded, failed on and logged. */
  private account(node: Node, result: TransformResult): void {
    for (const { count, intentional, reason, key } of result.discarded ?? []) {
      node.telemetry.discarded(count, intentional);
      if (key !== undefined) node.telemetry.discardedForKey(key, count);
      if (!intentional) node.log.warn(`Events dropped: ${reason}`, { count, internal_log_rate_key: 'events_dropped' });
    }
    for (const { count, errorType, stage, message, tags } of result.errors ?? []) {
      node.telemetry.error(errorType, stage, count, tags);
      node.log.error(message, { error_type: errorType, stage, internal_log_rate_key: errorType });
    }
    for (const { message, fields } of result.warnings ?? []) node.log.warn(message, fields);
    for (const { name, count, tags } of result.counters ?? []) node.telemetry.increment(name, count, tags);
    for (const { name, value } of result.gauges ?? []) node.telemetry.gauge(name).set(value);
    for (const { level, message, position: vrl_position } of result.logs ?? [])
      node.log[level](message, { vrl_position, internal_log_rate_limit: false });
    if (result.encodeFailures)
      node.encodesFor!.sink!.batchEncoder!.failed(result.encodeFailures.count, result.encodeFailures.message);
  }

  /** Writes what the buffer gives to the node's sink; when a reload gave the node a new sink, the old one is
   * closed (it has finished its last write) and the new one goes on from the next batch. */
  private async runSink(node: Node): Promise<void> {
    const buffer = node.buffer!;
    let sink = node.sink!;
    /** A batch taken while joining that did not join: the next write's first. */
    let carried: EventBatch | undefined;
    for (;;) {
      const popped = carried ?? (await buffer.pop());
      carried = undefined;
      if (node.sink !== sink) {
        await this.closeSink(node, sink);
        sink = node.sink!;
        if (popped === undefined) continue;
      }
      if (popped === undefined) break;
      const taken = [popped];
      const joined = { events: popped.count, bytes: popped.bytes.byteLength };
      for (let next = await buffer.popQueued(); next !== undefined; next = await buffer.popQueued()) {
        if (!joinable(popped, joined, next)) {
          carried = next;
          break;
        }
        taken.push(next);
        joined.events += next.count;
        joined.bytes += next.bytes.byteLength;
      }
      const parts = taken.map((part) => {
        node.telemetry.received(part.count, part.bytes.byteLength, part.sourceId);
        // A disk buffer's record is let go once the sink is done with its batch (delivered, or given up on,
        // as Vector's), which may be after `write` resolved: a batch gathered into a later request, or
        // retried. Its batches carry no source finalizer: the source was released once the record was on disk.
        if (buffer instanceof DiskBuffer)
          return { ...part, finalizer: new BatchNotifier(() => buffer.acknowledge(part)) };
        // A sink that does not acknowledge holds no source back: its batches count as delivered once taken.
        if (part.finalizer && !node.acknowledges) {
          part.finalizer.release();
          return { ...part, finalizer: undefined };
        }
        return part;
      });
      const batch = joinBatches(parts);
      node.utilization!.start();
      try {
        await sink.write(batch);
        for (const part of parts) node.telemetry.delivered(part.count, part.bytes.byteLength, part.sourceId);
      } catch (error) {
        // A write that fails has not released the batch's finalizer (`Sink.write`).
        batch.finalizer?.release('errored');
        node.telemetry.error('write_failed', 'sending', batch.count);
        node.log.error(
          `Sink failed to write ${batch.count} events: ${error instanceof Error ? error.message : String(error)}`,
          { internal_log_rate_key: 'write_failed' },
          error,
        );
      } finally {
        node.utilization!.end();
      }
    }
    // The sink first: closing it delivers (or gives up on) what it holds, which the ledger then records.
    await this.closeSink(node, sink);
    if (buffer instanceof DiskBuffer) await buffer.shutdown();
    this.finished(node);
  }

  private async closeSink(node: Node, sink: Sink): Promise<void> {
    try {
      await sink.close();
    } catch (error) {
      node.log.error(`Sink failed to close: ${error instanceof Error ? error.message : String(error)}`, {}, error);
    }
  }

  /** Hands a batch to every consumer of the output; the first gets it as is, the others a copy, because a
   * batch that goes to a worker is transferred away. Each copy is one more reference to its finalizer; an
   * output nothing consumes finishes with it. */
  private async send(node: Node, output: string | undefined, batch: EventBatch): Promise<void> {
    // Frames are counted once decoded (`decodedFrames`).
    if (!batch.frames) node.telemetry.sent(output, batch.count, batch.bytes.byteLength, batch.sourceId);
    const id = outputId(node.spec.id, output);
    // Before the consumers get it: a batch going to a worker is transferred away.
    if (this.tap.active) this.tap.offer(id, batch);
    const consumers = node.routes.get(id) ?? [];
    if (consumers.length === 0) batch.finalizer?.release();
    else batch.finalizer?.hold(consumers.length - 1);
    if (consumers.length === 0 && node.spec.kind === 'source') return;
    await Promise.all(
      consumers.map((consumer, i) =>
        consumer.buffer!.push(i === 0 ? batch : { ...batch, bytes: new Uint8Array(batch.bytes) }),
      ),
    );
  }

  /** A component sends no more: buffers nothing else sends into close, so their loops end (unless a reload
   * is restarting sources). */
  private finished(node: Node): void {
    node.utilization?.stop();
    node.sending = false;
    if (!this.reloading) this.closeUnfed();
  }

  /** Closes the buffers of the transforms and sinks that no running component sends into any more: they
   * drain what they hold, then their loops end. */
  private closeUnfed(): void {
    const all = [...this.nodes.values(), ...this.retiring];
    const fed = new Set<Node>();
    for (const node of all)
      if (node.sending)
        for (const consumers of node.routes.values()) for (const consumer of consumers) fed.add(consumer);
    for (const node of all) if (node.buffer && !fed.has(node)) node.buffer.close();
  }
}

/** A sink takes the small batches queued behind one in the same write, up to these: a few events at a time
 * (an HTTP request's, a broker message's) were each a write of their own (a file append, a socket write, a
 * broker round trip). */
const JOINED_EVENTS = 1000;
const JOINED_BYTES = 1 << 20;

/** Whether `next` joins the batches taken for one write (the first, and their sizes): plain input batches of
 * one kind, within bounds. */
function joinable(first: EventBatch, joined: { events: number; bytes: number }, next: EventBatch): boolean {
  if (next.frames || next.encoded || first.frames || first.encoded) return false;
  if (joined.events + next.count > JOINED_EVENTS || joined.bytes + next.bytes.byteLength > JOINED_BYTES) return false;
  // The same header (magic, version, flags) but the count.
  for (let i = 0; i < 8; i++) if (first.bytes[i] !== next.bytes[i]) return false;
  return true;
}

/** One batch of `parts` (in order), finished with as each of them would have been. */
function joinBatches(parts: readonly EventBatch[]): EventBatch {
  if (parts.length === 1) return parts[0]!;
  const { bytes, count } = concatBatches(parts);
  for (const part of parts) releaseBytes(part);
  const finalizers = parts.flatMap((part) => (part.finalizer ? [part.finalizer] : []));
  const finalizer =
    finalizers.length <= 1
      ? finalizers[0]
      : new BatchNotifier((status) => {
          for (const each of finalizers) each.release(status);
        });
  const sourceId = parts.every((part) => part.sourceId === parts[0]!.sourceId) ? parts[0]!.sourceId : undefined;
  return { bytes, count, ...(finalizer && { finalizer }), ...(sourceId !== undefined && { sourceId }) };
}

/**
 * Chains of transforms that run in one worker call, first → the rest: a concurrent transform whose only
 * output port feeds exactly one concurrent transform, fed by nothing else. The batch between them then
 * never goes back to the main thread (a message each way, and the main thread's time, per batch).
 */
export function chainedTransforms(graph: Graph): Map<string, string[]> {
  const concurrent = (id: string) => {
    const spec = graph.components.get(id);
    return spec?.definition.kind === 'transform' && spec.definition.concurrent === true;
  };
  const next = new Map<string, string>();
  for (const id of graph.components.keys()) {
    const edges = graph.edges.filter((edge) => edge.from === id);
    if (!concurrent(id) || (graph.ports.get(id)?.length ?? 0) !== 1 || edges.length !== 1) continue;
    const to = edges[0]!.to;
    if (concurrent(to) && graph.edges.filter((edge) => edge.to === to).length === 1) next.set(id, to);
  }
  const followers = new Set(next.values());
  const chains = new Map<string, string[]>();
  for (const first of next.keys()) {
    if (followers.has(first)) continue;
    const rest: string[] = [];
    for (let at = next.get(first); at !== undefined; at = next.get(at)) rest.push(at);
    chains.set(first, rest);
  }
  return chains;
}

/**
 * Edges where a transform's worker takes over a neighbour's codec work (host/topology/batch.ts), for a
 * transform that does (`codecWork`: remap, filter with a remap condition): a source whose only output feeds
 * one such transform and nothing else feeds it (the transform decodes the source's frames), and such a
 * transform whose default output feeds one sink and nothing else feeds it (the transform encodes for the
 * sink, when the sink encodes batches whole).
 */
export function fusedEdges(graph: Graph): {
  decodingSources: Map<string, string>;
  encodingTransforms: Map<string, string>;
} {
  const from = (id: string) => graph.edges.filter((edge) => edge.from === id);
  const into = (id: string) => graph.edges.filter((edge) => edge.to === id);
  const doesCodecWork = (id: string) => {
    const spec = graph.components.get(id);
    return spec?.definition.kind === 'transform' && (spec.definition.codecWork?.(spec.options) ?? false);
  };
  const decodingSources = new Map<string, string>();
  const encodingTransforms = new Map<string, string>();
  for (const spec of graph.components.values()) {
    const edges = from(spec.id);
    if (spec.kind === 'source' && (graph.ports.get(spec.id)?.length ?? 0) === 1 && edges.length === 1) {
      const to = edges[0]!.to;
      if (doesCodecWork(to) && into(to).length === 1) decodingSources.set(spec.id, to);
    }
    const main = edges.filter((edge) => edge.output === undefined);
    if (doesCodecWork(spec.id) && main.length === 1) {
      const to = main[0]!.to;
      if (graph.components.get(to)?.kind === 'sink' && into(to).length === 1) encodingTransforms.set(spec.id, to);
    }
  }
  return { decodingSources, encodingTransforms };
}

/** The sources some acknowledging sink is downstream of: they wait for it (Vector enables a source's
 * acknowledgements when any sink it feeds, however indirectly, has them). */
function acknowledgingSources(graph: Graph, sinkAcknowledges: (id: string) => boolean): Set<string> {
  const waiting = new Set<string>();
  for (const spec of graph.components.values()) {
    if (spec.kind !== 'source') continue;
    const seen = new Set<string>([spec.id]);
    const queue = [spec.id];
    for (let at = queue.pop(); at !== undefined; at = queue.pop()) {
      for (const edge of graph.edges) {
        if (edge.from !== at || seen.has(edge.to)) continue;
        seen.add(edge.to);
        queue.push(edge.to);
        if (graph.components.get(edge.to)?.kind === 'sink' && sinkAcknowledges(edge.to)) waiting.add(spec.id);
      }
    }
  }
  return waiting;
}

/**
 * The components of `next` a reload builds anew: those added, and those whose configuration changed (type,
 * options, proxy, the outputs feeding them, a sink's buffer and acknowledgements) or whose files changed (`filesRead`:
 * the running ones'), and those whose place in a fused edge or chain changed, since a source is built knowing
 * whether its consumer decodes its frames and whether it waits for acknowledgements, and a chain runs as one.
 */
function changedComponents(
  old: Graph,
  next: Graph,
  oldOptions: TopologyOptions,
  nextOptions: TopologyOptions,
  filesRead: ReadonlyMap<string, string | undefined>,
): Set<string> {
  const feeding = (graph: Graph, id: string) =>
    graph.edges
      .filter((edge) => edge.to === id)
      .map((edge) => outputId(edge.from, edge.output))
      .sort();
  const oldFused = fusedEdges(old);
  const nextFused = fusedEdges(next);
  const oldWaiting = acknowledgingSources(old, oldOptions.sinkAcknowledges);
  const nextWaiting = acknowledgingSources(next, nextOptions.sinkAcknowledges);
  const changed = new Set<string>();
  for (const spec of next.components.values()) {
    const before = old.components.get(spec.id);
    const id = spec.id;
    const same =
      before !== undefined &&
      before.kind === spec.kind &&
      before.type === spec.type &&
      isDeepStrictEqual(before.options, spec.options) &&
      isDeepStrictEqual(before.proxy, spec.proxy) &&
      isDeepStrictEqual(feeding(old, id), feeding(next, id)) &&
      filesRead.get(id) === contentOfFiles(spec) &&
      (spec.kind !== 'sink' ||
        (isDeepStrictEqual(oldOptions.sinkBuffer(id), nextOptions.sinkBuffer(id)) &&
          oldOptions.sinkAcknowledges(id) === nextOptions.sinkAcknowledges(id))) &&
      (spec.kind !== 'source' ||
        (oldFused.decodingSources.has(id) === nextFused.decodingSources.has(id) &&
          oldWaiting.has(id) === nextWaiting.has(id)));
    if (!same) changed.add(id);
  }
  const chains = (graph: Graph) =>
    [...chainedTransforms(graph)].map(([first, rest]) => [first, ...rest]).map((ids) => ({ ids, key: ids.join('\0') }));
  const oldChains = chains(old);
  const nextChains = chains(next);
  const chainOf = (list: typeof oldChains, id: string) => list.find((chain) => chain.ids.includes(id))?.key;
  for (const id of next.components.keys()) if (chainOf(oldChains, id) !== chainOf(nextChains, id)) changed.add(id);
  for (const chain of [...oldChains, ...nextChains])
    if (chain.ids.some((id) => changed.has(id)))
      for (const id of chain.ids) if (next.components.has(id)) changed.add(id);
  return changed;
}

/** What the files the component reads when built (a remap transform's `file`) hold, or undefined when it reads
 * none; a file that cannot be read counts as such, so it counts as changed once it can. */
function contentOfFiles(spec: ComponentSpec): string | undefined {
  const files = spec.definition.files?.(spec.options) ?? [];
  if (files.length === 0) return undefined;
  return files
    .map((file) => {
      try {
        return readFileSync(file, 'latin1');
      } catch (error) {
        return `unreadable: ${(error as NodeJS.ErrnoException).code}`;
      }
    })
    .join('\0');
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
