// `svc vrl` on more than one core: once the input proves large, its pieces also run on worker threads, each
// with its own instance of the module, while this thread reads, runs pieces of its own and writes. Every
// piece's `log()` lines, errors and output are written in input order, as on one thread.

import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LogLevel, Program } from '../runtime/index.js';
import { rawOptionValue } from './usage.js';

/** Bytes of a piece of input (cli/vrl.ts reads pieces of about this size). */
export const PIECE_BYTES = 1 << 20;
/** Past a few threads, the main thread's reading and writing is what limits a run. */
export const DEFAULT_MAX_THREADS = 4;

/** Threads of a run without `--threads`: one per core, at most DEFAULT_MAX_THREADS. */
export function defaultThreads(): number {
  return Math.min(availableParallelism(), DEFAULT_MAX_THREADS);
}

/** Whether `path` is a file of at least two pieces (what cannot be read is not). */
function isLargeFile(path: string): boolean {
  try {
    return statSync(path).size >= 2 * PIECE_BYTES;
  } catch {
    return false;
  }
}

let early: PieceWorker[] = [];

/**
 * Starts the worker threads of `svc vrl -i <file>` before the CLI's modules load, when the file is large
 * enough to run on several threads: their start-up (about 100 ms) then overlaps this thread's. `argv` (after
 * the script) is read roughly here; a run this misses starts them at its first full read instead.
 */
export function startEarlyVrlWorkers(argv: readonly string[]): void {
  if (argv[0] !== 'vrl' || argv.some((argument) => argument.startsWith('--emit-wasm'))) return;
  const input = rawOptionValue(argv, ['-i', '--input']);
  const threads = Number(rawOptionValue(argv, ['--threads']) ?? defaultThreads());
  if (input === undefined || !Number.isInteger(threads) || threads < 2 || !isLargeFile(input)) return;
  early = Array.from({ length: threads - 1 }, () => new PieceWorker());
}

/** The threads `startEarlyVrlWorkers` started (once). */
export function takeEarlyVrlWorkers(): PieceWorker[] {
  const taken = early;
  early = [];
  return taken;
}

/** What running a piece of lines gave: errors are numbered from the piece's first line. */
export interface PieceResult {
  output: Uint8Array;
  errors: Array<{ line: number; message: string }>;
  lines: number;
  /** `log()` lines, `level: message\n` each. */
  logs: string;
}

export interface VrlWorkerData {
  module: WebAssembly.Module;
  flags: number;
}

/** `log()` lines of runs on this thread, held to be written in input order. */
export class HeldLog {
  private text = '';

  readonly log = (level: LogLevel, message: string): void => {
    this.text += `${level}: ${message}\n`;
  };

  /** The lines held, which are then forgotten. */
  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}

/**
 * A worker thread (cli/vrl-worker.ts) that runs the pieces it is given in turn. It boots as soon as it is
 * made, so that it may start while this thread still compiles the program; it runs pieces once `init` gave
 * it the module.
 */
export class PieceWorker {
  private readonly worker: Worker;
  private ready = false;
  private stopped = false;
  /** The pieces given and not answered yet, in the order given (the worker answers in that order). */
  private readonly running: Array<{ resolve(result: PieceResult): void; reject(error: Error): void }> = [];

  constructor() {
    this.worker = new Worker(new URL('./vrl-worker.js', import.meta.url));
    this.worker.on('message', (message: PieceResult | 'ready') => {
      if (message === 'ready') this.ready = true;
      else this.running.shift()?.resolve(message);
    });
    // A worker that fails to start is never given a piece: this thread runs them all.
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => {
      this.stopped = true;
      this.failAll(new Error(`a worker thread stopped with exit code ${code}`));
    });
  }

  init(data: VrlWorkerData): void {
    this.worker.postMessage(data);
  }

  /**
   * Whether it may take a piece: started, and with less than two to run. The second one waits in its queue,
   * so that it has work while this thread, busy with a piece of its own, has not seen the first one's answer.
   */
  get available(): boolean {
    return this.ready && !this.stopped && this.running.length < 2;
  }

  run(piece: Uint8Array): Promise<PieceResult> {
    // The piece is a view of a buffer the reader reuses: the worker gets a copy of its own.
    const copy = new Uint8Array(piece);
    return new Promise((resolve, reject) => {
      this.running.push({ resolve, reject });
      this.worker.postMessage(copy, [copy.buffer]);
    });
  }

  async terminate(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }

  private failAll(error: Error): void {
    for (const { reject } of this.running.splice(0)) reject(error);
  }
}

/** A piece run or running whose result is not written yet; or a line too long to run. */
type Unwritten = { result?: PieceResult; failure?: Error; running?: Promise<void> } | 'too long';

/**
 * Runs pieces of input lines in turn, on this thread or on a worker (once `startWorkers` started them),
 * and writes what each gave in input order, numbering error lines across the input.
 */
export class PieceRunner {
  private workers: PieceWorker[] = [];
  private readonly unwritten: Unwritten[] = [];
  /** The index of the next line to write about. */
  private line = 0;

  constructor(
    /** Logs through `heldLog`. */
    private readonly program: Program,
    private readonly heldLog: HeldLog,
    private readonly module: WebAssembly.Module,
    private readonly flags: number,
    /** Extra threads `startWorkers` starts. */
    private readonly workerCount: number,
    private readonly tooLongMessage: string,
    /** Threads started already (for an input known to be large from the start). */
    started: PieceWorker[] = [],
  ) {
    this.adopt(started);
  }

  /** Starts the worker threads, once: for an input large enough to pay for their start-up. */
  startWorkers(): void {
    if (this.workers.length === 0) this.adopt(Array.from({ length: this.workerCount }, () => new PieceWorker()));
  }

  private adopt(workers: PieceWorker[]): void {
    for (const worker of workers) worker.init({ module: this.module, flags: this.flags });
    this.workers = workers;
  }

  async run(piece: Buffer): Promise<void> {
    const worker = this.workers.find((w) => w.available);
    if (worker) {
      const entry: Exclude<Unwritten, 'too long'> = {};
      entry.running = worker.run(piece).then(
        (result) => void (entry.result = result),
        (error: Error) => void (entry.failure = error),
      );
      this.unwritten.push(entry);
    } else {
      const { output, errors, lines } = this.program.runNdjson(piece, this.flags, { reuse: true });
      const result = { output, errors, lines, logs: this.heldLog.take() };
      await this.writeSettled();
      // The output is a view of the program's memory, which its next run overwrites: written now, or copied.
      if (this.unwritten.length === 0) await this.write(result);
      else this.unwritten.push({ result: { ...result, output: Buffer.from(output) } });
    }
    await this.writeSettled();
  }

  /** A line longer than the limit: one error line, in its place. */
  async skipTooLong(): Promise<void> {
    this.unwritten.push('too long');
    await this.writeSettled();
  }

  /** Writes what is left, waiting for the workers, and stops them. */
  async finish(): Promise<void> {
    try {
      for (const entry of this.unwritten) if (entry !== 'too long') await entry.running;
      await this.writeSettled();
    } finally {
      await Promise.all(this.workers.map((worker) => worker.terminate()));
    }
  }

  /** Writes the results at the head of the queue that are there. */
  private async writeSettled(): Promise<void> {
    while (this.unwritten.length > 0) {
      const head = this.unwritten[0];
      if (head !== 'too long' && head.failure) throw head.failure;
      if (head !== 'too long' && !head.result) return;
      this.unwritten.shift();
      if (head === 'too long') {
        process.stderr.write(`line ${this.line + 1}: ${this.tooLongMessage}\n`);
        this.line++;
      } else {
        await this.write(head.result!);
      }
    }
  }

  private async write(result: PieceResult): Promise<void> {
    const firstLine = this.line;
    this.line += result.lines;
    await writePiece(result, firstLine);
  }
}

/**
 * Writes a piece's `log()` lines and errors to stderr, the errors as `line N: <message>` from `firstLine` on
 * (without the prefix when the input has no lines to name), then its output to stdout.
 */
export async function writePiece({ output, errors, logs }: PieceResult, firstLine: number | undefined): Promise<void> {
  const prefix = (line: number) => (firstLine === undefined ? '' : `line ${firstLine + line + 1}: `);
  const text = logs + errors.map((e) => `${prefix(e.line)}${e.message}\n`).join('');
  if (text) process.stderr.write(text);
  // A failed write ends the process through the stream's 'error' event (cli/main.ts).
  await new Promise((resolve) => process.stdout.write(output, resolve));
}
