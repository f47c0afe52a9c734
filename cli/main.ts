#!/usr/bin/env node
// The `svc` executable: parses the command line with cac and hands over to one command module per
// subcommand; without one it starts the service. Usage errors exit with status 64.

import { readFileSync } from 'node:fs';
import { cac, type Command } from 'cac';
import { EXIT_USAGE, UsageError } from './usage.js';
import { registerGenerate } from './generate.js';
import { registerGraph } from './graph.js';
import { registerList } from './list.js';
import { registerService } from './service.js';
import { registerUnitTests } from './test.js';
import { normalizeNoEnvironment, registerValidate } from './validate.js';
import { registerVrl, VRL_HELP } from './vrl.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const cli = cac('svc');
cli.usage('[options] [command]');
cli.option('--color <when>', 'When to use ANSI colors: always, auto or never (env SVC_COLOR; default: auto)');
cli.version(version, '-V, --version');

const extraHelp = new Map<Command, { title: string; body: string }>([[registerVrl(cli), VRL_HELP]]);
registerGenerate(cli);
registerGraph(cli);
registerList(cli);
registerUnitTests(cli);
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

// cac reports its own usage errors (unknown option, missing value) by throwing a CACError.
const isUsageError = (error: unknown) =>
  error instanceof UsageError || (error instanceof Error && error.name === 'CACError');

try {
  cli.parse(camelCaseBooleanFlags(normalizeNoEnvironment(joinStdinValues(process.argv))), { run: false });
  if (cli.matchedCommand && !cli.options.help && !cli.options.version) await cli.runMatchedCommand();
} catch (error) {
  if (!isUsageError(error)) throw error;
  process.stderr.write(`svc: ${(error as Error).message}\n`);
  process.exitCode = EXIT_USAGE;
}
