// A transform worker thread: creates the transforms it is given and runs batches through them, returning
// the output batches as transferred buffers.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import type { TransformRunner } from '../components/component.js';
import type { EventBatch } from './batch.js';
import { createRunner, preloadRunner } from '../components/transforms/runners.js';
import { flushRunner, runChain, transferable, type WorkerReply, type WorkerRequest } from './executor.js';
import { publishMetricsSnapshot } from '../telemetry/metrics-snapshot.js';
import { applyMemoryTableChanges, enrichmentTablesReady, publishEnrichmentTables } from '../enrichment/tables.js';
import { takeKeyReads } from '../enrichment/memory-reader.js';

const runners = new Map<string, TransformRunner>();
const port = parentPort!;

// remap's runner (the wasm runtime) loads as soon as the worker has booted, while the main thread still
// loads the pipeline and its configuration: remap is the transform workers run, and loading it after the
// first `create` kept the first batch waiting.
preloadRunner('remap');

/**
 * A batch's bytes (received, and copied out of wasm to be transferred) live outside the JS heap, where a
 * worker allocates little: V8 would let tens of MB of dead batches pile up before a collection freed them
 * (they were most of a pipeline's peak RSS). A scavenge after every SCAVENGE_BYTES of batches received frees
 * them; it is cheap, the worker's young objects being few.
 */
const SCAVENGE_BYTES = 4 * 1024 * 1024;
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: { type: 'minor' }) => void;
let receivedBytes = 0;

port.on('message', async (request: WorkerRequest) => {
  if (request.op === 'metrics') {
    publishMetricsSnapshot(request.snapshot);
    return;
  }
  if (request.op === 'enrichment_tables') {
    publishEnrichmentTables(request.tables);
    return;
  }
  if (request.op === 'memory_table_changes') {
    applyMemoryTableChanges(request.changes);
    return;
  }
  if (request.op === 'remove') {
    runners.delete(request.id);
    return;
  }
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  const transferred = (batch: EventBatch): EventBatch => {
    const bytes = transferable(batch.bytes);
    // Two outputs may carry the same batch (a route matching everything): transfer it once.
    if (!transfer.includes(bytes.buffer as ArrayBuffer)) transfer.push(bytes.buffer as ArrayBuffer);
    return { ...batch, bytes };
  };
  try {
    await enrichmentTablesReady();
    if (request.op === 'create') {
      runners.set(request.id, await createRunner(request.type, request.plan));
      reply = { seq: request.seq };
    } else if (request.op === 'flush') {
      const flushed = flushRunner(runners.get(request.id)!, request.ended);
      for (const output of flushed.outputs) output.batch = transferred(output.batch);
      reply = { seq: request.seq, flushed };
    } else {
      const runs = runChain(
        request.chain.map((id) => runners.get(id)!),
        request.batches,
        request.encode,
        request.keepPassedOn,
      );
      for (const run of runs) {
        if ('error' in run) continue;
        for (const output of run.stages.at(-1)!.result.outputs) output.batch = transferred(output.batch);
        for (const { passedOn } of run.stages) if (passedOn?.batch) passedOn.batch = transferred(passedOn.batch);
      }
      reply = { seq: request.seq, runs };
      for (const batch of request.batches) receivedBytes += batch.bytes.byteLength;
    }
  } catch (error) {
    reply = { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
  reply.keyReads = takeKeyReads();
  port.postMessage(reply, transfer);
  if (receivedBytes >= SCAVENGE_BYTES) {
    receivedBytes = 0;
    collect({ type: 'minor' });
  }
});
