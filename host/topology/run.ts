// A running topology: every component built before anything starts, then one loop per transform and sink
// pulling batches from its buffer, sources pushing into their consumers' buffers. Backpressure is the
// buffers' `block`; shutdown stops the sources and lets everything already read drain through the sinks.

import type { ComponentEnv, HealthcheckOptions, Sink, Source, TransformResult } from '../components/component.js';
import type { Logger } from '../log.js';
import { BufferUtilization, SinkBufferTelemetry } from '../telemetry/buffer.js';
import { ComponentTelemetry, DEFAULT_OUTPUT_TAG } from '../telemetry/component.js';
import { SourceLag } from '../telemetry/source-lag.js';
import type { BatchNotifier, EventBatch } from './batch.js';
import { BatchBuffer, type BufferLimits } from './buffer.js';
import { DiskBuffer, type DiskBufferObserver } from './disk-buffer.js';
import type { StageResult, TransformExecutor } from './executor.js';
import { outputId, type ComponentSpec, type Graph } from './graph.js';
import { Utilization } from './utilization.js';
import { TapHub } from './tap.js';
import { reportDecodeErrors } from '../components/support/decoding.js';
import { join } from 'node:path';

/** Batches queued to each worker of a transform. Two left the workers idle a third of the time while this
 * thread read and wrote (S1 through stdin → remap → console, two workers on two cores); four keep them busy. */
const BATCHES_PER_WORKER = 4;

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
  telemetry: ComponentTelemetry;
  log: Logger;
  /** Of a transform or sink (a source has no input to wait for). */
  utilization?: Utilization;
  /** Input buffer of a transform or sink (a sink's may be on disk). */
  buffer?: BatchBuffer | DiskBuffer;
  /** Upstream components still producing into `buffer`. */
  producers: Set<string>;
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
}

export class Topology {
  private readonly nodes = new Map<string, Node>();
  /** Consumers of each output id (`<id>` or `<id>.<port>`). */
  private readonly consumers = new Map<string, Node[]>();
  private readonly shutdown = new AbortController();
  private running: Promise<void> | undefined;
  /** Samples the events passing outputs for the API's taps. */
  readonly tap: TapHub;

  private constructor(
    private readonly options: TopologyOptions,
    graph: Graph,
  ) {
    const { timezone, log_schema: schema } = options.env.globals;
    this.tap = new TapHub(graph, { timezone, messageKey: schema.message_key, timestampKey: schema.timestamp_key });
  }

  /** Builds every component (sources, transform plans and runners, sinks); nothing runs yet. A failure
   * anywhere stops the transform workers and rejects with every problem found (the process then exits,
   * which releases what sources and sinks bound). */
  static async build(graph: Graph, options: TopologyOptions): Promise<Topology> {
    const topology = new Topology(options, graph);
    const failures: BuildError['failures'] = [];
    const fused = fusedEdges(graph);
    const waiting = acknowledgingSources(graph, options.sinkAcknowledges);
    await Promise.all(
      [...graph.components.values()].map(async (spec) => {
        try {
          await topology.buildNode(spec, fused.decodingSources.has(spec.id), waiting.has(spec.id));
        } catch (error) {
          failures.push({ spec, message: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
    if (failures.length > 0) {
      await topology.release();
      throw new BuildError(failures);
    }
    for (const edge of graph.edges) {
      const consumer = topology.nodes.get(edge.to)!;
      consumer.producers.add(edge.from);
      const key = outputId(edge.from, edge.output);
      topology.consumers.set(key, [...(topology.consumers.get(key) ?? []), consumer]);
    }
    for (const [source, transform] of fused.decodingSources)
      topology.nodes.get(transform)!.framesFrom = topology.nodes.get(source);
    for (const [first, rest] of chainedTransforms(graph)) {
      const chain = rest.map((id) => topology.nodes.get(id)!);
      topology.nodes.get(first)!.chain = chain;
      for (const node of chain) node.chained = true;
    }
    for (const [transform, sink] of fused.encodingTransforms) {
      const sinkNode = topology.nodes.get(sink)!;
      // A disk buffer keeps events, not one configuration's encoding of them.
      if (sinkNode.sink!.batchEncoder && !(sinkNode.buffer instanceof DiskBuffer))
        topology.nodes.get(transform)!.encodesFor = sinkNode;
    }
    topology.meterSourceOutputs(graph);
    return topology;
  }

  /** Starts every loop; the promise resolves when all sources ended and everything drained. */
  start(): Promise<void> {
    this.running ??= this.runAll();
    return this.running;
  }

  /** Stops the sources; what they already sent drains through the sinks. */
  stop(): void {
    this.shutdown.abort();
  }

  /** The shutdown is forced: every sink stops at once, and what it and its buffer still held is counted
   * and logged as dropped. */
  kill(): void {
    for (const node of this.nodes.values()) {
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

  /** The sink's healthcheck, when its type has one. */
  sinkHealthcheck(id: string): ((options: HealthcheckOptions) => Promise<void>) | undefined {
    const sink = this.nodes.get(id)?.sink;
    return sink?.healthcheck ? (options) => sink.healthcheck!(options) : undefined;
  }

  get stopping(): boolean {
    return this.shutdown.signal.aborted;
  }

  /** `consumerDecodes`: a source whose one consumer decodes its frames (`fusedEdges`); `acknowledgements`: a
   * source that some acknowledging sink is downstream of (`acknowledgingSources`). */
  private async buildNode(spec: ComponentSpec, consumerDecodes: boolean, acknowledgements: boolean): Promise<void> {
    const telemetry = new ComponentTelemetry(
      this.options.env.metrics,
      spec.id,
      spec.kind,
      spec.type,
      this.options.env.globals.telemetry.tags,
    );
    const log = this.options.log.child(`svc::${spec.kind}s::${spec.type}`, {
      component_kind: spec.kind,
      component_type: spec.type,
      component_id: spec.id,
    });
    const utilization = spec.kind === 'source' ? undefined : new Utilization(telemetry.gauge('utilization'));
    const node: Node = { spec, telemetry, log, utilization, producers: new Set(), sourceOutputs: [] };
    this.nodes.set(spec.id, node);
    const env: ComponentEnv = { ...this.options.env, id: spec.id, log, telemetry, consumerDecodes, acknowledgements };
    const definition = spec.definition;
    switch (definition.kind) {
      case 'source':
        node.source = await definition.build(spec.options, env);
        return;
      case 'transform': {
        const plan = await definition.prepare(spec.options, env);
        await this.options.executor.create(spec.id, spec.type, plan, definition.concurrent);
        const limits: BufferLimits = { maxEvents: this.options.transformBufferEvents, whenFull: 'block' };
        node.buffer = new BatchBuffer(limits, this.bufferObserver(node, limits));
        return;
      }
      case 'sink': {
        node.sink = await definition.build(spec.options, env);
        node.acknowledges = this.options.sinkAcknowledges(spec.id);
        const limits = this.options.sinkBuffer(spec.id);
        node.buffer =
          limits.type === 'disk'
            ? await this.openDiskBuffer(spec.id, limits, this.bufferObserver(node, limits))
            : new BatchBuffer(limits, this.bufferObserver(node, limits));
        return;
      }
    }
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
        const consumers = this.consumers.get(outputId(node.spec.id, port.name)) ?? [];
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

  private async runAll(): Promise<void> {
    const loops: Array<Promise<void>> = [];
    for (const node of this.nodes.values()) {
      if (node.sink) loops.push(this.runSink(node, node.sink));
      else if (node.buffer && !node.chained) loops.push(this.runTransform(node));
    }
    for (const node of this.nodes.values()) if (node.source) loops.push(this.runSource(node, node.source));
    await Promise.all(loops);
    await this.release();
  }

  private async runSource(node: Node, source: Source): Promise<void> {
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
      await source.run({ send, shutdown: this.shutdown.signal });
    } catch (error) {
      node.telemetry.error('reader_failed', 'receiving');
      node.log.error(`Source failed: ${error instanceof Error ? error.message : String(error)}`, {}, error);
    } finally {
      this.finished(node);
    }
    // Its outputs are closed: the sinks drain while it waits for the last acknowledgements.
    await source.acknowledged?.();
  }

  /** Keeps up to BATCHES_PER_WORKER batches per worker running the transform: the next ones wait in the
   * worker while this thread forwards the last one's outputs, so neither waits on the other. Outputs leave
   * in input order, each as soon as it and those before it are ready. */
  private async runTransform(node: Node): Promise<void> {
    const buffer = node.buffer!;
    const inFlight = BATCHES_PER_WORKER * this.options.executor.parallelism(node.spec.id);
    let sent: Promise<void> = Promise.resolve();
    const unsent: Array<Promise<void>> = [];
    for (let batch = await buffer.pop(); batch !== undefined; batch = await buffer.pop()) {
      const result = this.process(node, batch);
      const { sourceId, finalizer } = batch;
      sent = sent.then(async () => this.forward(node, await result, sourceId, finalizer));
      unsent.push(sent);
      if (unsent.length >= inFlight) await unsent.shift();
    }
    await sent;
    for (const stage of [node, ...(node.chain ?? [])]) this.finished(stage);
  }

  /** One batch through the transform (and the transforms chained after it); undefined when it failed
   * (counted and logged). */
  private async process(node: Node, batch: EventBatch): Promise<StageResult[] | undefined> {
    // Frames are counted once decoded (`forward`).
    if (!batch.frames) node.telemetry.received(batch.count, batch.bytes.byteLength, batch.sourceId);
    // Read before the bytes are transferred to the worker (which detaches them here).
    const byteSize = batch.bytes.byteLength;
    const stages = [node, ...(node.chain ?? [])];
    const last = stages.at(-1)!;
    // A tap that wants an output the worker would keep (encoded for the sink, or passed on in the chain)
    // gets it back as a batch.
    const tapping = this.tap.active;
    const encode =
      last.encodesFor && !(tapping && this.tap.claim(last.spec.id, batch.count))
        ? last.encodesFor.sink!.batchEncoder!.options
        : undefined;
    const keepPassedOn =
      tapping && stages.some((stage) => stage !== last && this.tap.claim(stage.spec.id, batch.count));
    for (const stage of stages) stage.utilization!.start();
    try {
      const ids = stages.map((stage) => stage.spec.id);
      const results = await this.options.executor.processChain(ids, batch, encode, keepPassedOn);
      if (results[0]!.result.decoded) this.decodedFrames(node, byteSize, results[0]!.result.decoded, batch.sourceId);
      return results;
    } catch (error) {
      // The batch is lost, never the process: count it and go on with the next one.
      node.telemetry.error('transform_failed', 'processing', batch.count);
      node.telemetry.discarded(batch.count, false);
      node.log.error(
        `Transform failed on a batch of ${batch.count} events: ${error instanceof Error ? error.message : String(error)}`,
        { internal_log_rate_key: 'transform_failed' },
        error,
      );
      return undefined;
    } finally {
      for (const stage of stages) stage.utilization!.end();
    }
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

  /** Reports what a batch through a transform (and its chain) cost and sends the last one's outputs on, each
   * carrying the input's finalizer; the input's own reference is then released (an input every event of which
   * was dropped on purpose counts as delivered, as in Vector; one the transform failed on as errored). */
  private async forward(
    node: Node,
    stages: StageResult[] | undefined,
    sourceId: string | undefined,
    finalizer: BatchNotifier | undefined,
  ): Promise<void> {
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
      for (const { output, batch: out } of result.outputs) {
        if (out.count === 0) continue;
        finalizer?.hold();
        await this.send(
          stage,
          output,
          sourceId === undefined && finalizer === undefined ? out : { ...out, sourceId, finalizer },
        );
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
    for (const { count, errorType, stage, message } of result.errors ?? []) {
      node.telemetry.error(errorType, stage, count);
      node.log.error(message, { error_type: errorType, stage, internal_log_rate_key: errorType });
    }
    for (const { level, message } of result.logs ?? []) node.log[level](message, { vrl_position: 'log' });
    if (result.encodeFailures)
      node.encodesFor!.sink!.batchEncoder!.failed(result.encodeFailures.count, result.encodeFailures.message);
  }

  private async runSink(node: Node, sink: Sink): Promise<void> {
    const buffer = node.buffer!;
    for (let popped = await buffer.pop(); popped !== undefined; popped = await buffer.pop()) {
      let batch = popped;
      // A sink that does not acknowledge holds no source back: its batches count as delivered once taken.
      if (batch.finalizer && !node.acknowledges) {
        batch.finalizer.release();
        batch = { ...batch, finalizer: undefined };
      }
      node.telemetry.received(batch.count, batch.bytes.byteLength, batch.sourceId);
      node.utilization!.start();
      try {
        await sink.write(batch);
        node.telemetry.delivered(batch.count, batch.bytes.byteLength, batch.sourceId);
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
      // Delivered or given up on (counted above): either way the disk buffer lets it go, as Vector's does.
      if (buffer instanceof DiskBuffer) buffer.acknowledge(batch);
    }
    if (buffer instanceof DiskBuffer) await buffer.shutdown();
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
    const consumers = this.consumers.get(id) ?? [];
    if (consumers.length === 0) batch.finalizer?.release();
    else batch.finalizer?.hold(consumers.length - 1);
    if (consumers.length === 0 && node.spec.kind === 'source') return;
    await Promise.all(
      consumers.map((consumer, i) =>
        consumer.buffer!.push(i === 0 ? batch : { ...batch, bytes: new Uint8Array(batch.bytes) }),
      ),
    );
  }

  /** A component produces no more: buffers whose producers have all finished close, so their loops end. */
  private finished(node: Node): void {
    node.utilization?.stop();
    const notified = new Set<Node>();
    for (const [key, consumers] of this.consumers) {
      if (key !== node.spec.id && !key.startsWith(`${node.spec.id}.`)) continue;
      for (const consumer of consumers) notified.add(consumer);
    }
    for (const consumer of notified) {
      consumer.producers.delete(node.spec.id);
      if (consumer.producers.size === 0) consumer.buffer!.close();
    }
  }

  private async release(): Promise<void> {
    for (const node of this.nodes.values()) node.utilization?.stop();
    await this.options.executor.close();
  }
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
 * Edges where a transform's worker takes over a neighbour's codec work (host/topology/batch.ts): a source
 * whose only output feeds one remap transform and nothing else feeds it (the transform decodes the source's
 * frames), and a remap transform whose default output feeds one sink and nothing else feeds it (the
 * transform encodes for the sink, when the sink encodes batches whole).
 */
export function fusedEdges(graph: Graph): {
  decodingSources: Map<string, string>;
  encodingTransforms: Map<string, string>;
} {
  const from = (id: string) => graph.edges.filter((edge) => edge.from === id);
  const into = (id: string) => graph.edges.filter((edge) => edge.to === id);
  const isRemap = (id: string) => graph.components.get(id)?.type === 'remap';
  const decodingSources = new Map<string, string>();
  const encodingTransforms = new Map<string, string>();
  for (const spec of graph.components.values()) {
    const edges = from(spec.id);
    if (spec.kind === 'source' && (graph.ports.get(spec.id)?.length ?? 0) === 1 && edges.length === 1) {
      const to = edges[0]!.to;
      if (isRemap(to) && into(to).length === 1) decodingSources.set(spec.id, to);
    }
    const main = edges.filter((edge) => edge.output === undefined);
    if (isRemap(spec.id) && main.length === 1) {
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
