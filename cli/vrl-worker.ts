// A thread of `svc vrl` on a large input: runs the program on the pieces of lines it is sent and returns
// each piece's output, errors (lines numbered from the piece's start), line count and `log()` lines.

import { parentPort } from 'node:worker_threads';
import { defaultServices, instantiate, loadJsFunctions, readModuleInfo } from '../runtime/index.js';
import { HeldLog, type PieceResult, type VrlWorkerData } from './vrl-threads.js';

const port = parentPort!;

/** `log()` lines of the piece running, returned with it so that they are written in input order. */
const heldLog = new HeldLog();

// The thread may start before the module is compiled: it gets the module in its first message.
port.once('message', async ({ module, flags }: VrlWorkerData) => {
  const info = readModuleInfo(module);
  const instance = instantiate(module, {
    functions: await loadJsFunctions(info.jsFunctions),
    services: { ...defaultServices(info), log: heldLog.log },
  });
  port.on('message', (piece: Uint8Array) => {
    const { output, errors, lines } = instance.runNdjson(piece, flags, { reuse: true });
    // A copy out of the module's memory, in a buffer of its own to transfer.
    const result: PieceResult = { output: new Uint8Array(output), errors, lines, logs: heldLog.take() };
    port.postMessage(result, [result.output.buffer as ArrayBuffer]);
  });
  port.postMessage('ready');
});
