// A transform worker thread: creates the transforms it is given and runs batches through them, returning
// the output batches as transferred buffers.

import { parentPort } from 'node:worker_threads';
import type { TransformRunner } from '../components/component.js';
import type { EventBatch } from './batch.js';
import { createRunner, preloadRunner } from '../components/transforms/runners.js';
import { runStages, transferable, type WorkerReply, type WorkerRequest } from './executor.js';
import { publishMetricsSnapshot } from '../telemetry/metrics-snapshot.js';

const runners = new Map<string, TransformRunner>();
const port = parentPort!;

// remap's runner (the wasm runtime) loads as soon as the worker has booted, while the main thread still
// loads the pipeline and its configuration: remap is the transform workers run, and loading it after the
// first `create` kept the first batch waiting.
preloadRunner('remap');

port.on('message', async (request: WorkerRequest) => {
  if (request.op === 'metrics') {
    publishMetricsSnapshot(request.snapshot);
    return;
  }
  if (request.op === 'remove') {
    runners.delete(request.id);
    return;
  }
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    if (request.op === 'create') {
      runners.set(request.id, await createRunner(request.type, request.plan));
      reply = { seq: request.seq };
    } else {
      const stages = runStages(
        request.chain.map((id) => runners.get(id)!),
        request.batch,
        request.encode,
        request.keepPassedOn,
      );
      const transferred = (batch: EventBatch): EventBatch => {
        const bytes = transferable(batch.bytes);
        // Two outputs may carry the same batch (a route matching everything): transfer it once.
        if (!transfer.includes(bytes.buffer as ArrayBuffer)) transfer.push(bytes.buffer as ArrayBuffer);
        return { ...batch, bytes };
      };
      for (const output of stages.at(-1)!.result.outputs) output.batch = transferred(output.batch);
      for (const { passedOn } of stages) if (passedOn?.batch) passedOn.batch = transferred(passedOn.batch);
      reply = { seq: request.seq, stages };
    }
  } catch (error) {
    reply = { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, transfer);
});
