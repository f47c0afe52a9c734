// Network I/O for remap functions (`http_request`, `dns_lookup`, `reverse_dns`). A wasm import is
// synchronous and cannot await, so a request goes to a worker thread (io-worker.ts), which does it with
// Node's asynchronous APIs, posts the reply on a MessagePort, sets a flag in a SharedArrayBuffer and wakes
// the caller, blocked meanwhile on `Atomics.wait` with a timeout; the caller then takes the reply with
// `receiveMessageOnPort`. One worker serves a process (it is unref'd: it never keeps the process alive).

import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { RemapValue } from '../abi/values.js';

/** An operation of the worker (io-worker.ts) and its arguments. */
export type IoRequest =
  | {
      op: 'http';
      url: string;
      method: string;
      headers: Record<string, string>;
      body: string;
      httpProxy?: string;
      httpsProxy?: string;
    }
  | { op: 'dns'; name: string; qtype: string; qclass: string; servers: string[]; timeoutMs: number; attempts: number }
  | { op: 'reverse_dns'; address: string };

/** What the worker answers: the result value, or the error message. */
export type IoReply = { ok: true; value: RemapValue } | { ok: false; error: string };

/** Runs I/O synchronously for the calling thread. */
export interface BlockingIo {
  /** Fails with `timeoutMs`' message when no reply came in time. */
  run(request: IoRequest, timeoutMs: number): IoReply;
}

/** Default time a function waits for its I/O. */
export const IO_TIMEOUT_MS = 10_000;

interface Envelope {
  id: number;
  reply: IoReply;
}

class WorkerIo implements BlockingIo {
  private worker?: Worker;
  private port?: MessagePort;
  /** [0]: set to 1 by the worker once the reply to the current request is posted. */
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 0;

  run(request: IoRequest, timeoutMs: number): IoReply {
    const port = this.start();
    const id = ++this.nextId;
    // Replies to requests that timed out earlier are dropped unread.
    while (receiveMessageOnPort(port) !== undefined);
    Atomics.store(this.flag, 0, 0);
    port.postMessage({ id, request });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.flag, 0, 0, left) === 'timed-out') {
        return { ok: false, error: `request timed out after ${timeoutMs} ms` };
      }
      Atomics.store(this.flag, 0, 0);
      for (let message = receiveMessageOnPort(port); message !== undefined; message = receiveMessageOnPort(port)) {
        const envelope = message.message as Envelope;
        if (envelope.id === id) return envelope.reply;
      }
    }
  }

  private start(): MessagePort {
    if (this.port) return this.port;
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(new URL('./io-worker.js', import.meta.url), {
      workerData: { port: port2, flag: this.flag },
      transferList: [port2],
    });
    this.worker.unref();
    port1.unref();
    this.port = port1;
    return port1;
  }
}

let processIo: BlockingIo | undefined;

/** The process's I/O worker, started on first use. */
export function workerIo(): BlockingIo {
  processIo ??= new WorkerIo();
  return processIo;
}
