// `svc vrl`: run a remap program on newline-delimited JSON events (through the batch path), print one line
// per event, write or run precompiled modules, or start the interactive REPL when no program is given.

import { close, open, read } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { CAC, Command } from 'cac';
import type { Diagnostic, ModuleInfo, Program } from '../runtime/index.js';
import {
  DEFAULT_MAX_THREADS,
  defaultThreads,
  HeldLog,
  PIECE_BYTES,
  PieceRunner,
  takeEarlyVrlWorkers,
  writePiece,
  type PieceWorker,
} from './vrl-threads.js';
import {
  CliError,
  EXIT_IO,
  EXIT_NO_INPUT,
  EXIT_SOFTWARE,
  stringOption,
  systemErrorReason,
  useColor,
  UsageError,
} from './usage.js';

/** Extra help text shown under `svc vrl --help`. */
export const VRL_HELP = {
  title: 'Output',
  body: [
    '  One line per event on stdout: the result of the last expression, or the event with -o,',
    '  in remap display form. A runtime error goes to stderr as "line N: <message>" (N: the input line)',
    '  and the run goes on with the next event; so does a line longer than --max-line-bytes.',
    '  Without --input the program runs once on the empty event {}; "-i -" reads stdin.',
    '  Compile errors go to stderr with exit status 70. Without a program, an interactive REPL starts.',
  ].join('\n'),
};

/** Input lines longer than this are errors unless --max-line-bytes says otherwise: 100 MiB. */
const DEFAULT_MAX_LINE_BYTES = 100 * 2 ** 20;

export function registerVrl(cli: CAC): Command {
  return cli
    .command('vrl [program]', 'Run a remap program on events, or start the remap REPL')
    .option('-p, --program <file>', 'Read the program from a file (instead of the argument)')
    .option('-i, --input [file]', 'File of newline-delimited JSON events (stdin when empty or "-")')
    .option('-o, --print-object', 'Print the modified event instead of the result of the last expression')
    .option('--timezone <zone>', 'Time zone for timestamps without one: an IANA name or "local" (default: local)')
    .option('--emit-wasm [file]', 'Write the compiled module to a file, or print its text form to stdout')
    .option('--module <file>', 'Run a module written by --emit-wasm instead of compiling a program')
    .option(
      '--max-line-bytes <bytes>',
      `Longest input line; a longer one is an error and skipped (default: ${DEFAULT_MAX_LINE_BYTES})`,
    )
    .option(
      '--threads <count>',
      `Threads a large input runs on (default: one per core, at most ${DEFAULT_MAX_THREADS})`,
    )
    .option('-v, --verbose', 'On a failure, also print where it happened (as RUST_BACKTRACE=1 does)')
    .example("  $ svc vrl '.status = to_int!(.status)' -i events.ndjson")
    .example('  $ svc vrl -o -p examples/start.vrl -i examples/start.ndjson')
    .example('  $ svc vrl --emit-wasm out.wasm -p program.vrl && svc vrl --module out.wasm -i events.ndjson')
    .action(runVrl);
}

async function runVrl(programArgument: string | undefined, options: Record<string, unknown>): Promise<void> {
  // Threads started before the CLI loaded, for a large input file; the run stops them, or here those it did not take.
  const early = takeEarlyVrlWorkers();
  try {
    await runVrlWith(programArgument, options, early);
  } finally {
    await Promise.all(early.map((worker) => worker.terminate()));
  }
}

async function runVrlWith(
  programArgument: string | undefined,
  options: Record<string, unknown>,
  early: PieceWorker[],
): Promise<void> {
  const programFile = stringOption(options.program, '--program');
  const moduleFile = stringOption(options.module, '--module');
  const timezone = await checkTimezone(stringOption(options.timezone, '--timezone'));
  const maxLineBytes =
    positiveInteger(stringOption(options.maxLineBytes, '--max-line-bytes'), '--max-line-bytes', 'bytes') ??
    DEFAULT_MAX_LINE_BYTES;
  const threads =
    positiveInteger(stringOption(options.threads, '--threads'), '--threads', 'threads') ?? defaultThreads();
  const emit = options.emitWasm;
  // cac leaves what follows `--` out of the arguments: `svc vrl -- '<program>'` for a program that starts with a dash.
  const afterDashes = options['--'] as string[];
  if (afterDashes.length > (programArgument === undefined ? 1 : 0))
    throw new UsageError('give one program: its text as one argument');
  programArgument ??= afterDashes[0];
  if (moduleFile !== undefined && (programArgument !== undefined || programFile !== undefined)) {
    throw new UsageError('give either a program or --module, not both');
  }
  if (moduleFile !== undefined && emit !== undefined) throw new UsageError('--emit-wasm needs a program, not --module');

  // Loaded here, not at the top: `svc --help` and `svc --version` need no compiler.
  const runtime = await import('../runtime/index.js');
  // Anything compiled here is compiled before another thread runs wasm (see the function).
  if (moduleFile === undefined) (await import('../compiler/index.js')).runBinaryenAtBaselineTier();
  if (moduleFile === undefined && programArgument === undefined && programFile === undefined) {
    if (emit !== undefined || options.input !== undefined)
      throw new UsageError('no program: pass its text as an argument or a file with --program <file>');
    const { startRepl } = await import('./repl.js');
    // The REPL prints its diagnostics on stdout.
    return startRepl({ timezone, color: useColor(options.color, process.stdout) });
  }
  if (moduleFile !== undefined) {
    const wasm = await readInput(moduleFile, 'module file', (path) => readFile(path));
    let started: Started;
    try {
      const { module, info } = runtime.loadModule(wasm);
      // Instantiating refuses a module without the ABI's exports or calling a JS function this svc lacks.
      started = await startProgram(runtime, module, info, (info.warnings ?? []) as Diagnostic[]);
    } catch (error) {
      throw new CliError(`cannot load module file '${moduleFile}': ${(error as Error).message}`, EXIT_SOFTWARE, {
        cause: error,
      });
    }
    return runEvents(runtime, started, options, maxLineBytes, threads, early);
  }

  const source = await readProgram(programArgument, programFile);
  const color = useColor(options.color, process.stderr);
  const report = (diagnostics: readonly Diagnostic[]) => {
    if (diagnostics.length === 0) return;
    process.stderr.write(runtime.renderDiagnostics(source, [...diagnostics], { color }).trimEnd() + '\n');
  };
  try {
    if (emit !== undefined) {
      const toStdout = emit === true || emit === '-';
      const compiled = await runtime.compileModule(source, { timezone }, { names: true, text: toStdout });
      report(compiled.warnings);
      if (toStdout) process.stdout.write(compiled.text!);
      else await writeOutput(String(emit), 'module file', compiled.wasm);
      return;
    }
    const compiled = await runtime.compileToModule(source, { timezone });
    report(compiled.warnings);
    await runEvents(
      runtime,
      await startProgram(runtime, compiled.module, compiled.info, compiled.warnings),
      options,
      maxLineBytes,
      threads,
      early,
    );
  } catch (error) {
    if (!(error instanceof runtime.CompileError)) throw error;
    report([...error.diagnostics, ...error.warnings]);
    process.exitCode = EXIT_SOFTWARE;
  }
}

type Runtime = typeof import('../runtime/index.js');

/** The program on this thread, its module (for other threads) and where its `log()` lines are held. */
interface Started {
  module: WebAssembly.Module;
  program: Program;
  heldLog: HeldLog;
}

async function startProgram(
  runtime: Runtime,
  module: WebAssembly.Module,
  info: ModuleInfo,
  warnings: readonly Diagnostic[],
): Promise<Started> {
  const heldLog = new HeldLog();
  return {
    module,
    heldLog,
    program: await runtime.programOf(module, info, { warnings, services: { log: heldLog.log } }),
  };
}

/**
 * Runs the program on the input (`{}` without one): on this thread and, for a large input, on `threads - 1`
 * others, `early` ones started already.
 */
async function runEvents(
  runtime: Runtime,
  { module, program, heldLog }: Started,
  options: Record<string, unknown>,
  maxLineBytes: number,
  threads: number,
  early: PieceWorker[],
): Promise<void> {
  const flags = options.printObject ? runtime.NDJSON_PRINT_OBJECT : 0;
  const input = options.input;
  // Without input there is no input line to name in errors.
  if (input === undefined) {
    await writePiece(
      { ...program.runNdjson(Buffer.from('{}\n'), flags, { reuse: true }), logs: heldLog.take() },
      undefined,
    );
    return;
  }
  const tooLong = `the line is longer than ${maxLineBytes} bytes (--max-line-bytes): skipped`;
  const runner = new PieceRunner(program, heldLog, module, flags, threads - 1, tooLong, early);
  const fromStdin = input === true || input === '' || input === '-';
  try {
    const fd = fromStdin ? 0 : await readInput(String(input), 'input file', (path) => openFile(path, 'r'));
    const read = descriptorReader(fd, fromStdin ? 'stdin' : `input file '${String(input)}'`);
    try {
      for await (const piece of linePieces(read, maxLineBytes)) {
        if (piece === TOO_LONG) {
          await runner.skipTooLong();
          continue;
        }
        // A full read: more input is likely to follow, enough to pay for starting the other threads.
        if (piece.length >= READ_BYTES / 2) runner.startWorkers();
        await runner.run(piece);
      }
    } finally {
      if (!fromStdin) await closeFile(fd);
    }
  } finally {
    await runner.finish();
  }
}

/** Reads up to `length` bytes of the input into `into` at `at`; resolves to the count, 0 at the end. */
type ReadInto = (into: Buffer, at: number, length: number) => Promise<number>;

/**
 * Reads a descriptor straight into the caller's buffer. Stdin left non-blocking by another process (reads
 * fail with EAGAIN) is read through Node's stream instead, its chunks copied in. A read error names the
 * input (`what`).
 */
function descriptorReader(fd: number, what: string): ReadInto {
  let chunks: AsyncIterator<Buffer> | undefined;
  /** What the stream gave that has not been copied in yet. */
  let rest: Buffer = Buffer.alloc(0);
  return async (into, at, length) => {
    try {
      if (chunks === undefined) {
        try {
          return await readInto(fd, into, at, length);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || fd !== 0) throw error;
          chunks = (process.stdin as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
        }
      }
      if (rest.length === 0) {
        const next = await chunks.next();
        if (next.done) return 0;
        rest = next.value;
      }
      const copied = rest.copy(into, at, 0, length);
      rest = rest.subarray(copied);
      return copied;
    } catch (error) {
      throw fileError(error, `cannot read ${what}`);
    }
  };
}

const openFile = promisify(open);
const closeFile = promisify(close);

function readInto(fd: number, into: Buffer, at: number, length: number): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, into, at, length, null, (error, count) => (error ? reject(error) : resolve(count))),
  );
}

/**
 * Bytes of a piece: each read asks for what makes the unfinished line carried over up to this. No more than
 * the runtime's NDJSON_CHUNK_BYTES, so that a piece runs in one call and its output is a view of the
 * module's memory, not a copy.
 */
const READ_BYTES = PIECE_BYTES;

/** What to ask of the read after `carried` bytes of an unfinished line (a long line grows a read at a time). */
function readLength(carried: number): number {
  return carried < READ_BYTES / 2 ? READ_BYTES - carried : READ_BYTES;
}

/** What `linePieces` gives for a line longer than the limit, which it drops. */
const TOO_LONG = Symbol('too long');

/**
 * Splits the input into pieces of whole lines for the program as they are read (about a read at a time),
 * into two reused buffers: while the pieces of one run, the next read fills the other, after the unfinished
 * line copied over. A piece is a view of its buffer, valid until the next piece is asked for. A line longer
 * than a read goes on in the same buffer, which grows to hold it. A line longer than `maxLineBytes` (without
 * its newline) is given as TOO_LONG instead: such a line is dropped as it is read, so an endless one
 * (`-i /dev/zero`) costs no memory. Lines are looked for one by one only when the bytes in hand are more
 * than `maxLineBytes`; otherwise a piece ends at the last newline.
 */
async function* linePieces(read: ReadInto, maxLineBytes: number): AsyncGenerator<Buffer | typeof TOO_LONG> {
  let buffer = Buffer.allocUnsafe(READ_BYTES);
  let spare = Buffer.allocUnsafe(0);
  /** The bytes read and not handed out yet, `buffer[0, end)`: the start of a line. */
  let end = 0;
  /** Inside a line already given as TOO_LONG: its bytes are dropped up to its newline. */
  let skipping = false;
  let reading = read(buffer, 0, READ_BYTES);
  for (let count = await reading; count > 0; count = await reading) {
    const data = buffer.subarray(0, end + count);
    const pieces: Array<Buffer | typeof TOO_LONG> = [];
    /** The start of the lines not handed out yet, and of the line after the last newline seen. */
    let [runStart, start] = [0, 0];
    if (!skipping && data.length <= maxLineBytes) {
      start = data.lastIndexOf(10) + 1;
    } else {
      for (let newline = data.indexOf(10, end); newline >= 0; newline = data.indexOf(10, start)) {
        if (skipping || newline - start > maxLineBytes) {
          if (start > runStart) pieces.push(data.subarray(runStart, start));
          if (!skipping) pieces.push(TOO_LONG);
          [runStart, skipping] = [newline + 1, false];
        }
        start = newline + 1;
      }
    }
    end = data.length;
    if (start > runStart) pieces.push(data.subarray(runStart, start));
    if (!skipping && end - start > maxLineBytes) {
      pieces.push(TOO_LONG);
      skipping = true;
    }
    if (skipping) end = start;
    const unfinished = end - start;
    if (start > 0) {
      // Lines ended in this buffer: the next read goes to the other one while they run.
      if (spare.length < unfinished + READ_BYTES)
        spare = Buffer.allocUnsafe(Math.max(unfinished + READ_BYTES, 2 * spare.length));
      data.copy(spare, 0, start, end);
      [buffer, spare] = [spare, buffer];
    } else if (buffer.length < end + READ_BYTES) {
      const grown = Buffer.allocUnsafe(Math.max(end + READ_BYTES, 2 * buffer.length));
      data.copy(grown, 0, 0, end);
      buffer = grown;
    }
    end = unfinished;
    reading = read(buffer, end, readLength(end));
    // Its failure is thrown where it is awaited, after the pieces: not an unhandled rejection meanwhile.
    reading.catch(() => undefined);
    yield* pieces;
  }
  if (end > 0) yield buffer.subarray(0, end);
}

async function readProgram(argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined) {
    throw new UsageError('give the program either as an argument or with --program, not both');
  }
  if (file !== undefined) return readInput(file, 'program file', (path) => readFile(path, 'utf8'));
  return argument!;
}

/** Reasons a file cannot serve as input at all (EX_NOINPUT), in the words of the error line. */
const NO_INPUT_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
};

/** A file operation's system error as a one-line failure: `<doing>: <reason>`; other errors as they are. */
function fileError(error: unknown, doing: string): unknown {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || syscall === undefined) return error;
  const reason = NO_INPUT_REASONS[code];
  return new CliError(
    `${doing}: ${reason ?? systemErrorReason(error as NodeJS.ErrnoException)}`,
    reason ? EXIT_NO_INPUT : EXIT_IO,
    { cause: error },
  );
}

/** Runs a file operation whose failure names the file. */
async function readInput<T>(path: string, what: string, operation: (path: string) => Promise<T>): Promise<T> {
  try {
    return await operation(path);
  } catch (error) {
    throw fileError(error, `cannot read ${what} '${path}'`);
  }
}

async function writeOutput(path: string, what: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFile(path, bytes);
  } catch (error) {
    throw fileError(error, `cannot write ${what} '${path}'`);
  }
}

function positiveInteger(value: string | undefined, flag: string, unit: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(number) || number === 0) {
    throw new UsageError(`invalid ${flag} '${value}': expected a positive whole number of ${unit}`);
  }
  return number;
}

/** A time zone as the remap functions read it (IANA names with their exact case, or "local"). */
async function checkTimezone(zone: string | undefined): Promise<string | undefined> {
  if (zone !== undefined && !(await import('../runtime/index.js')).isTimeZone(zone)) {
    throw new UsageError(`unknown time zone '${zone}': expected an IANA name such as Europe/Paris, or "local"`);
  }
  return zone;
}
