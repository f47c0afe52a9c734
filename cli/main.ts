#!/usr/bin/env node
// The `svc` executable: parses the command line with cac and hands over to one command module per
// subcommand; without one it starts the service. Usage errors exit with status 64.

import { readFileSync } from 'node:fs';
import { cac, type Command } from 'cac';
import { CliError, EXIT_IO, EXIT_SOFTWARE, EXIT_USAGE, systemErrorReason } from './usage.js';
import { registerGenerate } from './generate.js';
import { registerGraph } from './graph.js';
import { registerList } from './list.js';
import { registerService } from './service.js';
import { registerTap } from './tap.js';
import { registerUnitTests } from './test.js';
import { registerTop } from './top.js';
import { normalizeNoEnvironment, registerValidate } from './validate.js';
import { registerVrl, VRL_HELP } from './vrl.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const cli = cac('svc');
cli.usage('[options] [command]');
cli.option('--color <when>', 'When to use ANSI colors: always, auto or never (env SVC_COLOR; default: auto)');
cli.version(version, '-V, --version');

const extraHelp = new Map<Command, { title: string; body: string }>([[registerVrl(cli), VRL_HELP]]);
registerGenerate(cli);
registerGraph(cli);
registerList(cli);
registerTap(cli);
registerUnitTests(cli);
registerTop(cli);
registerValidate(cli);
registerService(cli, version);
cli.help((sections) => {
  const extra = cli.matchedCommand && extraHelp.get(cli.matchedCommand);
  return extra ? [...sections, extra] : sections;
});

/**
 * `-i -` (stdin) as `--input=-`: cac's parser (mri) takes a lone `-` for an empty flag group and drops the
 * argument after it.
 */
function joinStdinValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i + 1] === '-' && (argv[i] === '-i' || argv[i] === '--input')) {
      out.push('--input=-');
      i++;
    } else out.push(argv[i]!);
  }
  return out;
}

/** `svc help [command]` as `svc [command] --help` (Vector's `help` subcommand). */
function helpAsFlag(argv: readonly string[]): string[] {
  const [node, script, command, ...rest] = argv;
  return command === 'help' ? [node!, script!, ...rest, '--help'] : [...argv];
}

/**
 * Boolean flags with a dash in their name, camelCased (`--skip-healthchecks` → `--skipHealthchecks`): cac
 * tells its parser (mri) which options are boolean by their camelCase names, so `--skip-healthchecks path`
 * would otherwise take `path` as the flag's value.
 */
function camelCaseBooleanFlags(argv: readonly string[]): string[] {
  const flags = new Map<string, string>();
  for (const command of [cli.globalCommand, ...cli.commands]) {
    for (const option of command.options) {
      if (!option.isBoolean || option.negated) continue;
      for (const name of option.rawName.split(',').map((n) => n.trim())) {
        if (/^--\w+-/.test(name)) flags.set(name, `--${option.names.at(-1)}`);
      }
    }
  }
  return argv.map((arg) => flags.get(arg) ?? arg);
}

/**
 * The one place where failures become exit statuses: `svc: <message>` on stderr, with the stack (not of a
 * usage error: it has nothing to show) only when RUST_BACKTRACE is set (as Vector) or -v asks for it. A
 * reader that went away (EPIPE) ends the process quietly, as Unix tools do.
 */
function fail(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
  const { exitCode, message } = describeFailure(error);
  process.stderr.write(`svc: ${message}\n`);
  const backtrace = (process.env.RUST_BACKTRACE ?? '0') !== '0' || Boolean(cli.options.verbose);
  if (backtrace && exitCode !== EXIT_USAGE) process.stderr.write(`${stackOf(error)}\n`);
  process.exitCode = exitCode;
}

function describeFailure(error: unknown): { exitCode: number; message: string } {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  // cac reports its own usage errors (unknown option, missing value) by throwing a CACError.
  if (error instanceof Error && error.name === 'CACError') {
    // cac names an unknown option by its camelCased key: say it as it is written.
    const message = error.message.replace(
      /`--(\w+)`/,
      (_, key: string) => `\`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}\``,
    );
    return { exitCode: EXIT_USAGE, message };
  }
  // Node's system errors. The commands name the file of those they expect; a failed write left is stdout's.
  const system = error as NodeJS.ErrnoException;
  if (typeof system.code === 'string' && system.syscall !== undefined) {
    return {
      exitCode: EXIT_IO,
      message: system.syscall === 'write' ? `cannot write output: ${systemErrorReason(system)}` : system.message,
    };
  }
  return { exitCode: EXIT_SOFTWARE, message: error instanceof Error ? error.message : String(error) };
}

/** The stack of `error` and of its causes. */
function stackOf(error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return error instanceof Error && error.cause !== undefined ? `${stack}\ncaused by: ${stackOf(error.cause)}` : stack;
}

// Output errors arrive as events of the streams, not from write(); each ends the process as `fail` says.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    fail(error);
    process.exit();
  });
}

try {
  cli.parse(camelCaseBooleanFlags(normalizeNoEnvironment(joinStdinValues(helpAsFlag(process.argv)))), { run: false });
  if (cli.matchedCommand && !cli.options.help && !cli.options.version) await cli.runMatchedCommand();
} catch (error) {
  fail(error);
}
