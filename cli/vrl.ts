// `svc vrl`: run a remap program on newline-delimited JSON events (through the batch path), print one line
// per event, write or run precompiled modules, or start the interactive REPL when no program is given.

import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { CAC, Command } from 'cac';
import type { Diagnostic, Program } from '../runtime/index.js';
import { parseTimeZone } from '../runtime/time-zones.js';
import { stringOption, useColor, UsageError } from './usage.js';

/** Extra help text shown under `svc vrl --help`. */
export const VRL_HELP = {
  title: 'Output',
  body: [
    '  One line per event on stdout: the result of the last expression, or the event with -o,',
    '  in remap display form. A runtime error goes to stderr and the run goes on with the next event.',
    '  Without --input the program runs once on the empty event {}; "-i -" reads stdin.',
    '  Compile errors go to stderr with exit status 1. Without a program, an interactive REPL starts.',
  ].join('\n'),
};

export function registerVrl(cli: CAC): Command {
  return cli
    .command('vrl [program]', 'Run a remap program on events, or start the remap REPL')
    .option('-p, --program <file>', 'Read the program from a file (instead of the argument)')
    .option('-i, --input [file]', 'File of newline-delimited JSON events (stdin when empty or "-")')
    .option('-o, --print-object', 'Print the modified event instead of the result of the last expression')
    .option('--timezone <zone>', 'Time zone for timestamps without one: an IANA name or "local" (default: local)')
    .option('--emit-wasm [file]', 'Write the compiled module to a file, or print its text form to stdout')
    .option('--module <file>', 'Run a module written by --emit-wasm instead of compiling a program')
    .example('  $ svc vrl \'.status = to_int!(.status)\' -i events.ndjson')
    .example('  $ svc vrl -o -p examples/start.vrl -i examples/start.ndjson')
    .example('  $ svc vrl --emit-wasm out.wasm -p program.vrl && svc vrl --module out.wasm -i events.ndjson')
    .action(runVrl);
}

async function runVrl(programArgument: string | undefined, options: Record<string, unknown>): Promise<void> {
  const color = useColor(options.color, process.stderr);
  const programFile = stringOption(options.program, '--program');
  const moduleFile = stringOption(options.module, '--module');
  const timezone = checkTimezone(stringOption(options.timezone, '--timezone'));
  const emit = options.emitWasm;
  if (moduleFile !== undefined && (programArgument !== undefined || programFile !== undefined)) {
    throw new UsageError('give either a program or --module, not both');
  }
  if (moduleFile !== undefined && emit !== undefined) throw new UsageError('--emit-wasm needs a program, not --module');

  // Loaded here, not at the top: `svc --help` and `svc --version` need no compiler.
  const runtime = await import('../runtime/index.js');
  if (moduleFile === undefined && programArgument === undefined && programFile === undefined) {
    if (emit !== undefined || options.input !== undefined) throw new UsageError('no program: pass its text as an argument or a file with --program <file>');
    const { startRepl } = await import('./repl.js');
    return startRepl({ timezone, color });
  }

  let program: Program;
  if (moduleFile !== undefined) {
    const wasm = await mustRead(moduleFile, 'module file', (path) => readFile(path));
    program = await runtime.loadProgram(wasm);
  } else {
    const source = await readProgram(programArgument, programFile);
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
        else await writeFile(String(emit), compiled.wasm);
        return;
      }
      program = await runtime.compile(source, { timezone });
      report(program.warnings);
    } catch (error) {
      if (!(error instanceof runtime.CompileError)) throw error;
      report([...error.diagnostics, ...error.warnings]);
      process.exitCode = 1;
      return;
    }
  }

  const flags = options.printObject ? runtime.NDJSON_PRINT_OBJECT : 0;
  const input = options.input;
  if (input === undefined) return runChunk(program, Buffer.from('{}\n'), flags);
  const stream: Readable = input === true || input === '' || input === '-'
    ? process.stdin
    : await openInput(String(input));
  await runStream(program, stream, flags);
}

/** Feeds the program whole lines, about a megabyte at a time, writing output as it comes. */
async function runStream(program: Program, stream: Readable, flags: number): Promise<void> {
  /** The start of a line whose newline has not arrived yet. */
  let partial: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const firstEnd = chunk.indexOf(10) + 1;
    if (firstEnd === 0) {
      partial = Buffer.concat([partial, chunk]);
      continue;
    }
    // The partial line runs on its own, completed by the chunk's first line, so the rest of the chunk runs
    // where it is instead of being copied after it.
    if (partial.length) await runChunk(program, Buffer.concat([partial, chunk.subarray(0, firstEnd)]), flags);
    const start = partial.length ? firstEnd : 0;
    const end = chunk.lastIndexOf(10) + 1;
    if (end > start) await runChunk(program, chunk.subarray(start, end), flags);
    partial = chunk.subarray(end);
  }
  if (partial.length) await runChunk(program, partial, flags);
}

async function runChunk(program: Program, lines: Buffer, flags: number): Promise<void> {
  const { output, errors } = program.runNdjson(lines, flags);
  if (errors.length) process.stderr.write(errors.map((e) => e.message).join('\n') + '\n');
  if (!process.stdout.write(output)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}

async function openInput(path: string): Promise<Readable> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  await mustRead(path, 'input file', () => new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  }));
  return stream;
}

async function readProgram(argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined) {
    throw new UsageError('give the program either as an argument or with --program, not both');
  }
  if (file !== undefined) return mustRead(file, 'program file', (path) => readFile(path, 'utf8'));
  return argument!;
}

/** Runs a file operation, turning its failure into a usage error that names the file. */
async function mustRead<T>(path: string, what: string, operation: (path: string) => Promise<T>): Promise<T> {
  try {
    return await operation(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`cannot read ${what} '${path}': ${reason}`);
  }
}

/** A time zone as the remap functions read it (IANA names with their exact case, or "local"). */
function checkTimezone(zone: string | undefined): string | undefined {
  if (zone !== undefined && parseTimeZone(zone) === undefined) {
    throw new UsageError(`unknown time zone '${zone}': expected an IANA name such as Europe/Paris, or "local"`);
  }
  return zone;
}
