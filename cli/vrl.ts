// `svc vrl`: compile a remap program and report its diagnostics on stderr. This version checks programs
// only; `--input` and `--print-object` are part of the command's interface and take effect once programs run.

import { access, readFile } from 'node:fs/promises';
import type { CAC, Command } from 'cac';
import type { Diagnostic } from '../runtime/index.js';
import { stringOption, useColor, UsageError } from './usage.js';

/** Extra help text shown under `svc vrl --help`. */
export const VRL_HELP = {
  title: 'Status',
  body: [
    '  This version checks programs without running them: warnings and errors go to stderr;',
    '  exit status 0 when the program compiles, 1 when it has errors, 2 for a usage error.',
    '  --input and --print-object are accepted; no events are read or printed yet.',
    '  Without a program, the interactive mode is not available yet.',
  ].join('\n'),
};

export function registerVrl(cli: CAC): Command {
  return cli
    .command('vrl [program]', 'Check a remap program and report its diagnostics')
    .option('-p, --program <file>', 'Read the program from a file (instead of the argument)')
    .option('-i, --input <file>', 'File of newline-delimited JSON events to run the program on (default: stdin)')
    .option('-o, --print-object', 'Print the modified event instead of the result of the last expression')
    .option('--timezone <zone>', 'Time zone for timestamps without one: an IANA name or "local" (default: local)')
    .example('  $ svc vrl \'.status = to_int!(.status)\'')
    .example('  $ svc vrl --program examples/start.vrl')
    .action(runVrl);
}

async function runVrl(programArgument: string | undefined, options: Record<string, unknown>): Promise<void> {
  const color = useColor(options.color, process.stderr);
  const programFile = stringOption(options.program, '--program');
  const inputFile = stringOption(options.input, '--input');
  const timezone = checkTimezone(stringOption(options.timezone, '--timezone'));
  const source = await readProgram(programArgument, programFile);
  if (inputFile !== undefined) await mustRead(inputFile, 'input file', (path) => access(path));

  // Loaded here, not at the top: `svc --help` and `svc --version` need no compiler.
  const { compile, CompileError, renderDiagnostics } = await import('../runtime/index.js');
  const report = (diagnostics: readonly Diagnostic[]) => {
    if (diagnostics.length === 0) return;
    process.stderr.write(renderDiagnostics(source, [...diagnostics], { color }).trimEnd() + '\n');
  };

  try {
    const program = await compile(source, { timezone });
    const warnings = program.warnings.length;
    report(program.warnings);
    process.stderr.write(warnings ? `\nprogram compiles with ${warnings} warning${warnings > 1 ? 's' : ''}\n` : 'program compiles\n');
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    report([...error.diagnostics, ...error.warnings]);
    process.exitCode = 1;
  }
}

async function readProgram(argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined) {
    throw new UsageError('give the program either as an argument or with --program, not both');
  }
  if (file !== undefined) return mustRead(file, 'program file', (path) => readFile(path, 'utf8'));
  if (argument !== undefined) return argument;
  throw new UsageError('no program: pass its text as an argument or a file with --program <file>');
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

function checkTimezone(zone: string | undefined): string | undefined {
  if (zone === undefined || zone === 'local') return zone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new UsageError(`unknown time zone '${zone}': expected an IANA name such as Europe/Paris, or "local"`);
  }
  return zone;
}
