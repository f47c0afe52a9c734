// A transform worker thread: creates the transforms it is given and runs batches through them, returning
// the output batches as transferred buffers.

import { parentPort } from 'node:worker_threads';
import type { TransformRunner } from '../components/component.js';
import type { EventBatch } from './batch.js';
import { createRunner } from '../components/transforms/runners.js';
import { runChain, transferable, type WorkerReply, type WorkerRequest } from './executor.js';
import { publishMetricsSnapshot } from '../telemetry/metrics-snapshot.js';

const runners = new Map<string, TransformRunner>();
const port = parentPort!;

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
      const runs = runChain(
        request.chain.map((id) => runners.get(id)!),
        request.batches,
        request.encode,
        request.keepPassedOn,
      );
      const transferred = (batch: EventBatch): EventBatch => {
        const bytes = transferable(batch.bytes);
        // Two outputs may carry the same batch (a route matching everything): transfer it once.
        if (!transfer.includes(bytes.buffer as ArrayBuffer)) transfer.push(bytes.buffer as ArrayBuffer);
        return { ...batch, bytes };
      };
      for (const run of runs) {
        if ('error' in run) continue;
        for (const output of run.stages.at(-1)!.result.outputs) output.batch = transferred(output.batch);
        for (const { passedOn } of run.stages) if (passedOn?.batch) passedOn.batch = transferred(passedOn.batch);
      }
      reply = { seq: request.seq, runs };
    }
  } catch (error) {
    reply = { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, transfer);
});
