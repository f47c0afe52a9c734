// Where transforms run: in worker threads (`--threads N`), each transform pinned to one worker so the order
// of its stream is kept, with batches transferred rather than copied; or inline on the main thread (unit
// tests, `svc test`).

import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { TransformDefinition, TransformResult, TransformRunner } from '../components/component.js';
import { handOver, type EventBatch } from './batch.js';
import type { EncodeOptions } from '../../runtime/engine.js';
import type { MetricSample } from '../telemetry/metrics.js';
import { feedMetricsSnapshots, publishMetricsSnapshot, type MetricsFeed } from '../telemetry/metrics-snapshot.js';
import { enrichmentTablesReady, publishEnrichmentTables, type EnrichmentTableData } from '../enrichment/tables.js';
import { addKeyReads, type KeyReads, type MemoryTableChanges } from '../enrichment/memory-reader.js';

export interface TransformExecutor {
  /** Creates the transform's runner from its plan (in the worker that will run it; in every worker when
   * `concurrent`). */
  create(id: string, type: string, plan: unknown, concurrent?: boolean): Promise<void>;
  /** Forgets a transform (replaced or removed by a reload, and drained). */
  remove(id: string): void;
  /** Gives the remap programs of every thread these enrichment tables (at start-up and after a reload); their
   * bytes are shared, not copied. */
  publishEnrichmentTables(tables: readonly EnrichmentTableData[]): void;
  /** Gives the threads what a memory table's flush changed. */
  publishMemoryTableChanges(changes: MemoryTableChanges): void;
  /** Runs at least `threads` workers from now on (a reload added transforms; never more than configured). */
  grow(threads: number): void;
  /** How many batches of the transform can run at once. */
  parallelism(id: string): number;
  /** `encode`: see `TransformRunner.process`. */
  process(id: string, batch: EventBatch, encode?: EncodeOptions): Promise<TransformResult>;
  /** Runs batches, one after the other in one thread (one hop for them all), each through a chain of
   * transforms, each one's default output the next one's input (`encode` for the last); per batch, one
   * result per transform that ran, or why the chain failed on it. `keepPassedOn`: return the batches passed
   * between them too (a tap samples them). */
  processChain(
    chain: readonly string[],
    batches: readonly EventBatch[],
    encode?: EncodeOptions,
    keepPassedOn?: boolean,
  ): Promise<ChainRun[]>;
  /** The runner's `flush` (a transform that keeps events), in the thread that runs it, after the batches
   * sent to it before. */
  flush(id: string, ended: boolean): Promise<TransformResult>;
  close(): Promise<void>;
}

/** What one transform of a chain did: its result and, when its default output went on to the next transform
 * in the same thread, that output's size instead of the output itself. */
export interface StageResult {
  result: TransformResult;
  /** `batch` only when asked for (`keepPassedOn`). */
  passedOn?: { count: number; byteSize: number; batch?: EventBatch };
}

/** What a chain did with one batch: each transform's result, or why it failed on the batch (the batch is
 * lost alone). */
export type ChainRun = { stages: StageResult[] } | { error: string };

/** Runs each batch through `runners` (`runStages`), a batch that throws failing alone. */
export function runChain(
  runners: readonly TransformRunner[],
  batches: readonly EventBatch[],
  encode?: EncodeOptions,
  keepPassedOn = false,
): ChainRun[] {
  return batches.map((batch) => {
    try {
      return { stages: runStages(runners, batch, encode, keepPassedOn) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  });
}

/** The stage results of a chain's run on one batch; throws when the chain failed on it. */
function stagesOf(run: ChainRun): StageResult[] {
  if ('error' in run) throw new Error(run.error);
  return run.stages;
}

/** Runs `batch` through `runners` in turn (see `processChain`); stops early when a stage passes nothing on. */
function runStages(
  runners: readonly TransformRunner[],
  batch: EventBatch,
  encode?: EncodeOptions,
  keepPassedOn = false,
): StageResult[] {
  const stages: StageResult[] = [];
  let input = batch;
  for (const [i, runner] of runners.entries()) {
    if (i === runners.length - 1) {
      stages.push({ result: runner.process(input, encode) });
      break;
    }
    const result = runner.process(input);
    // A chained transform has its default output only (`chainedTransforms` in run.ts).
    const next = result.outputs.find((out) => out.output === undefined)?.batch;
    const passedOn = {
      count: next?.count ?? 0,
      byteSize: next?.bytes.byteLength ?? 0,
      batch: keepPassedOn ? next : undefined,
    };
    stages.push({ result: { ...result, outputs: [] }, passedOn });
    if (next === undefined || next.count === 0) break;
    input = next;
  }
  return stages;
}

/** `runner.flush(ended)`; nothing from a runner that keeps no events. */
export function flushRunner(runner: TransformRunner, ended: boolean): TransformResult {
  return runner.flush?.(ended) ?? { outputs: [] };
}

export type TransformLookup = (type: string) => TransformDefinition;

export class InlineExecutor implements TransformExecutor {
  private readonly runners = new Map<string, TransformRunner>();
  private readonly stopMetrics: (() => void) | undefined;

  /** `metrics`: the pipeline's registry snapshots, for remap programs' metrics functions. */
  constructor(
    private readonly lookup: TransformLookup,
    metrics?: MetricsFeed,
  ) {
    this.stopMetrics = metrics && feedMetricsSnapshots(metrics, publishMetricsSnapshot);
  }

  async create(id: string, type: string, plan: unknown): Promise<void> {
    await enrichmentTablesReady();
    this.runners.set(id, await this.lookup(type).create(plan));
  }

  remove(id: string): void {
    this.runners.delete(id);
  }

  publishEnrichmentTables(tables: readonly EnrichmentTableData[]): void {
    publishEnrichmentTables(tables);
  }

  /** Nothing to send: the main thread reads a memory table's own entries. */
  publishMemoryTableChanges(): void {}

  grow(): void {}

  parallelism(id: string): number {
    if (!this.runners.has(id)) throw new Error(`no transform ${id}`);
    return 1;
  }

  async process(id: string, batch: EventBatch, encode?: EncodeOptions): Promise<TransformResult> {
    return stagesOf((await this.processChain([id], [batch], encode))[0]!)[0]!.result;
  }

  async processChain(
    chain: readonly string[],
    batches: readonly EventBatch[],
    encode?: EncodeOptions,
    keepPassedOn?: boolean,
  ): Promise<ChainRun[]> {
    return runChain(
      chain.map((id) => this.runners.get(id)!),
      batches,
      encode,
      keepPassedOn,
    );
  }

  async flush(id: string, ended: boolean): Promise<TransformResult> {
    return flushRunner(this.runners.get(id)!, ended);
  }

  async close(): Promise<void> {
    this.stopMetrics?.();
    this.runners.clear();
  }
}

/** Messages to a worker that it replies to. */
export type WorkerCall =
  | { op: 'create'; seq: number; id: string; type: string; plan: unknown }
  | {
      op: 'process';
      seq: number;
      chain: readonly string[];
      batches: readonly EventBatch[];
      encode?: EncodeOptions;
      keepPassedOn?: boolean;
    }
  | { op: 'flush'; seq: number; id: string; ended: boolean };

/** Messages to a worker: calls, and those without a reply (the pipeline's metrics snapshot, a transform to
 * forget). */
export type WorkerRequest =
  | WorkerCall
  | { op: 'metrics'; snapshot: readonly MetricSample[] }
  | { op: 'enrichment_tables'; tables: readonly EnrichmentTableData[] }
  | { op: 'memory_table_changes'; changes: MemoryTableChanges }
  | { op: 'remove'; id: string };

/** Messages from a worker: a call's runs (`process`) or result (`flush`), or why it failed; with the memory
 * table lookups it counted per key since its last reply. */
export type WorkerReply = {
  seq: number;
  runs?: ChainRun[];
  flushed?: TransformResult;
  error?: string;
  keyReads?: KeyReads;
};

/** The bytes as a whole ArrayBuffer that can be transferred (copied first when they are a view into a larger one). */
export function transferable(bytes: Uint8Array): Uint8Array {
  // `new Uint8Array(view)` copies; `slice` would not on a Buffer (Buffer.prototype.slice is a view).
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes
    : new Uint8Array(bytes);
}

/**
 * The young generations of a pipeline's threads keep their start-up size: what they allocate per batch dies
 * young, and batches live outside the heap (a worker's outputs are freed as consumed: `releaseBytes`). Grown
 * by V8, the main thread's reached 34 MB on the default pipeline. The growth factor is read at each growth, so
 * set here (before the workers start and the CLI loads) it holds for the whole process; `--max-semi-space-size`
 * set from code would not: a heap's limits are fixed when it is made.
 */
setFlagsFromString('--semi-space-growth-factor=1');
/** A worker's young generation (its two semi-spaces and large objects): 1 MB semi-spaces, its allocations
 * per batch being few (results and messages). */
const WORKER_YOUNG_GENERATION_MB = 3;

/** The buffers of outputs a worker transferred are this thread's now; one that two outputs carry (a route
 * matching everything) is not a single batch's. */
function handOverOutputs(outputs: TransformResult['outputs']): void {
  const carriers = new Map<ArrayBufferLike, number>();
  for (const { batch } of outputs) carriers.set(batch.bytes.buffer, (carriers.get(batch.bytes.buffer) ?? 0) + 1);
  for (const { batch } of outputs) if (carriers.get(batch.bytes.buffer) === 1) handOver(batch.bytes);
}

/** One transform worker thread. */
export class WorkerThread {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, { resolve(reply: WorkerReply): void; reject(error: Error): void }>();
  private failure: Error | undefined;
  private loop: EventLoopUtilization | undefined;

  constructor() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    this.worker.on('message', (reply: WorkerReply) => {
      if (reply.keyReads) addKeyReads(reply.keyReads);
      const waiting = this.pending.get(reply.seq);
      this.pending.delete(reply.seq);
      waiting?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`transform worker exited with code ${code}`)));
  }

  request(message: WorkerCall, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(message.seq, { resolve, reject });
      this.worker.postMessage(message, transfer);
    });
  }

  /** The share of its time the worker spent running (its event loop's utilization) since the last call. */
  busyShare(): number {
    const now = this.worker.performance.eventLoopUtilization();
    const share =
      this.loop === undefined ? 0 : this.worker.performance.eventLoopUtilization(now, this.loop).utilization;
    this.loop = now;
    return share;
  }

  /** Posts a message that has no reply. */
  notify(message: WorkerRequest): void {
    if (!this.failure) this.worker.postMessage(message);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Calls sent and not answered yet. */
  get outstanding(): number {
    return this.pending.size;
  }

  /** Whether the worker keeps the process alive (it does unless told otherwise). */
  keepAlive(keep: boolean): void {
    if (keep) this.worker.ref();
    else this.worker.unref();
  }

  async terminate(): Promise<void> {
    this.failure ??= new Error('transform worker stopped');
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/** How often a pipeline's load is looked at, to start the workers not started yet (`WorkerExecutor`). */
const LOAD_CHECK_MS = 50;

/** Whether the workers not started yet are worth starting: one that runs transforms is busy nearly all the
 * time, and the process leaves at least half a core of the machine to a new one (a worker's boot alone takes
 * ~80 ms of a core; on two cores, a second worker for a pipeline whose main thread keeps the other core busy
 * made a 300k-event file → remap → file run ~30 ms slower, not faster). */
export function worthJoining(busiestWorkerShare: number, spareCores: number): boolean {
  return busiestWorkerShare >= 0.9 && spareCores >= 0.5;
}

/** The worker with the fewest calls outstanding (the first of those): a worker the system paused, or one
 * given slower batches, gets fewer of the next ones instead of holding every other batch behind it. */
function leastBusy(workers: readonly WorkerThread[]): WorkerThread {
  let best = workers[0]!;
  for (const worker of workers) if (worker.outstanding < best.outstanding) best = worker;
  return best;
}

/** A transform's workers: those running it (that have created it so far), how many will, and why one of
 * them could not create it. */
interface Assignment {
  workers: WorkerThread[];
  size: number;
  failure?: Error;
  /** A concurrent transform's definition, created again on each worker that joins (`join`). */
  concurrent?: { type: string; plan: unknown };
}

export class WorkerExecutor implements TransformExecutor {
  private readonly workers: WorkerThread[];
  private readonly assignment = new Map<string, Assignment>();
  /** `processChain` calls waiting for a worker to finish creating a transform (or to fail to). */
  private readonly createdWaiters: Array<() => void> = [];
  private next = 0;
  private readonly stopMetrics: (() => void) | undefined;
  private enrichmentTables: readonly EnrichmentTableData[] = [];
  /** Workers wanted; those not started yet join once the load asks for them (`watchLoad`). */
  private threads: number;
  private joined = false;
  private loadWatch: NodeJS.Timeout | undefined;

  /**
   * `threads` workers: the `started` ones (booted while the configuration was read), one more now when none
   * was, and the rest once the workers started are busy and the machine has cores to spare (`worthJoining`),
   * or now with `startAll`. A booting worker takes a core for ~80 ms: on two cores, a second one booting with
   * the configuration delayed a pipeline's first event by ~50 ms, and a pipeline with little to do needs one.
   * `metrics`: see InlineExecutor.
   */
  constructor(threads: number, started: readonly WorkerThread[] = [], metrics?: MetricsFeed, startAll = false) {
    this.threads = threads;
    this.workers = [...started];
    // None for a pipeline without transforms.
    if (threads > 0) this.workerAt(startAll ? threads - 1 : 0);
    this.joined = threads > 0 && this.workers.length >= threads;
    this.stopMetrics =
      metrics &&
      feedMetricsSnapshots(metrics, (snapshot) =>
        this.workers.forEach((worker) => worker.notify({ op: 'metrics', snapshot })),
      );
  }

  /** Worker threads started so far. */
  get startedWorkers(): number {
    return this.workers.length;
  }

  /** Worker `index`, started with those before it when they were not. */
  private workerAt(index: number): WorkerThread {
    while (this.workers.length <= index) {
      const worker = new WorkerThread();
      if (this.enrichmentTables.length > 0) worker.notify({ op: 'enrichment_tables', tables: this.enrichmentTables });
      this.workers.push(worker);
    }
    return this.workers[index]!;
  }

  /** From the first batch on, starts the other workers once `worthJoining` says so. */
  private watchLoad(): void {
    let cpu = process.cpuUsage();
    let at = performance.now();
    for (const worker of this.workers) worker.busyShare();
    this.loadWatch = setInterval(() => {
      const used = process.cpuUsage(cpu);
      const elapsedMicros = (performance.now() - at) * 1000;
      [cpu, at] = [process.cpuUsage(), performance.now()];
      const spare = availableParallelism() - (used.user + used.system) / elapsedMicros;
      const busiest = Math.max(...this.workers.map((worker) => worker.busyShare()));
      if (worthJoining(busiest, spare)) this.join();
    }, LOAD_CHECK_MS).unref();
  }

  /** Starts the workers not started yet; each creates the concurrent transforms as it boots. */
  join(): void {
    this.joined = true;
    clearInterval(this.loadWatch);
    const started = this.workers.length;
    if (started >= this.threads) return;
    this.workerAt(this.threads - 1);
    const joining = this.workers.slice(started);
    for (const [id, assigned] of this.assignment) {
      if (assigned.concurrent === undefined) continue;
      const { type, plan } = assigned.concurrent;
      for (const worker of joining) this.createOn(worker, id, type, plan, assigned).catch(() => undefined);
    }
  }

  /** Resolves once one worker runs the transform: a concurrent transform's other workers join as they finish
   * booting (or once the first batch comes: `join`), so the first batches do not wait for the slowest. */
  async create(id: string, type: string, plan: unknown, concurrent = false): Promise<void> {
    // Round robin in topological order: consecutive transforms of a chain land on different workers. A
    // pipeline that had no transforms (a reload added this one) starts its first worker here.
    const workers = concurrent ? [...this.workers] : [this.workerAt(this.next++ % this.threads)];
    if (workers.length === 0) workers.push(this.workerAt(0));
    const assigned: Assignment = {
      workers: [],
      size: concurrent ? Math.max(this.threads, workers.length) : 1,
      concurrent: concurrent ? { type, plan } : undefined,
    };
    this.assignment.set(id, assigned);
    await Promise.any(workers.map((worker) => this.createOn(worker, id, type, plan, assigned))).catch(
      (error: AggregateError) => {
        throw error.errors[0];
      },
    );
  }

  /** Creates the transform on `worker`, which then runs it; a worker failing after another succeeded fails
   * the transform's next batch (`processChain`). */
  private async createOn(
    worker: WorkerThread,
    id: string,
    type: string,
    plan: unknown,
    assigned: Assignment,
  ): Promise<void> {
    try {
      const reply = await worker.request({ op: 'create', seq: worker.nextSeq(), id, type, plan });
      if (reply.error !== undefined) throw new Error(reply.error);
      assigned.workers.push(worker);
    } catch (error) {
      assigned.failure ??= error as Error;
      throw error;
    } finally {
      for (const wake of this.createdWaiters.splice(0)) wake();
    }
  }

  remove(id: string): void {
    const assigned = this.assignment.get(id);
    this.assignment.delete(id);
    for (const worker of assigned?.workers ?? []) worker.notify({ op: 'remove', id });
  }

  publishEnrichmentTables(tables: readonly EnrichmentTableData[]): void {
    this.enrichmentTables = tables;
    // The main thread's programs (a source's or a sink's) look them up too.
    publishEnrichmentTables(tables);
    for (const worker of this.workers) worker.notify({ op: 'enrichment_tables', tables });
  }

  publishMemoryTableChanges(changes: MemoryTableChanges): void {
    for (const worker of this.workers) worker.notify({ op: 'memory_table_changes', changes });
  }

  grow(threads: number): void {
    this.threads = Math.max(this.threads, threads);
    if (this.joined) this.workerAt(this.threads - 1);
  }

  parallelism(id: string): number {
    return this.assignment.get(id)!.size;
  }

  async process(id: string, batch: EventBatch, encode?: EncodeOptions): Promise<TransformResult> {
    return stagesOf((await this.processChain([id], [batch], encode))[0]!)[0]!.result;
  }

  async processChain(
    chain: readonly string[],
    batches: readonly EventBatch[],
    encode?: EncodeOptions,
    keepPassedOn?: boolean,
  ): Promise<ChainRun[]> {
    if (!this.joined && this.loadWatch === undefined) this.watchLoad();
    const assignments = chain.map((id) => this.assignment.get(id)!);
    const head = assignments[0]!;
    // The workers that have created every transform of the chain (they join each transform as they finish
    // creating it); until one has, wait.
    for (;;) {
      for (const assigned of assignments) if (assigned.failure) throw assigned.failure;
      const ready = head.workers.filter((worker) => assignments.every((assigned) => assigned.workers.includes(worker)));
      if (ready.length > 0) return this.run(leastBusy(ready), { chain, batches, encode, keepPassedOn });
      await new Promise<void>((resolve) => this.createdWaiters.push(resolve));
    }
  }

  private async run(
    worker: WorkerThread,
    call: Omit<Extract<WorkerCall, { op: 'process' }>, 'op' | 'seq'>,
  ): Promise<ChainRun[]> {
    const transfer: ArrayBuffer[] = [];
    // The finalizers stay on this thread (the caller keeps them for the outputs): only plain data crosses.
    const batches = call.batches.map(({ finalizer: _kept, ...batch }) => {
      const bytes = transferable(batch.bytes);
      transfer.push(bytes.buffer as ArrayBuffer);
      return { ...batch, bytes };
    });
    const reply = await worker.request({ ...call, op: 'process', seq: worker.nextSeq(), batches }, transfer);
    if (reply.error !== undefined) throw new Error(reply.error);
    handOverOutputs(reply.runs!.flatMap((run) => ('error' in run ? [] : run.stages.at(-1)!.result.outputs)));
    return reply.runs!;
  }

  async flush(id: string, ended: boolean): Promise<TransformResult> {
    const assigned = this.assignment.get(id)!;
    if (assigned.failure) throw assigned.failure;
    // Not concurrent: its one worker, which has created it (`create` resolved).
    const worker = assigned.workers[0]!;
    const reply = await worker.request({ op: 'flush', seq: worker.nextSeq(), id, ended });
    if (reply.error !== undefined) throw new Error(reply.error);
    handOverOutputs(reply.flushed!.outputs);
    return reply.flushed!;
  }

  async close(): Promise<void> {
    this.stopMetrics?.();
    clearInterval(this.loadWatch);
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
