// `svc generate [pipeline]`: prints (or writes with --file) a configuration for a pipeline expression.

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CAC, Command } from 'cac';
import type { ConfigFormat } from '../host/index.js';
import { stringOption, UsageError } from './usage.js';

async function runGenerate(pipeline: string | undefined, parsed: Record<string, unknown>): Promise<number> {
  // Loaded here, not at the top: the other commands (a one-shot `svc vrl`) need none of the pipeline.
  const { EXIT, formatOfPath, GENERATE_FORMATS, GenerateError, generateConfig } = await import('../host/index.js');
  const file = stringOption(parsed.file, '--file');
  // Without --format, a --file's extension decides (YAML when it has none of .toml, .json, .yaml, .yml).
  const format = (stringOption(parsed.format, '--format') ??
    (file === undefined ? 'yaml' : formatOfPath(file))) as ConfigFormat;
  if (!GENERATE_FORMATS.includes(format))
    throw new UsageError(`invalid --format '${format}': expected one of ${GENERATE_FORMATS.join(', ')}`);
  let text: string;
  try {
    text = await generateConfig(pipeline === undefined ? '' : String(pipeline), {
      fragment: parsed.fragment === true,
      format,
    });
  } catch (error) {
    if (!(error instanceof GenerateError)) throw error;
    for (const problem of error.errors) process.stderr.write(`${problem}\n`);
    return EXIT.SOFTWARE;
  }
  if (file === undefined) {
    process.stdout.write(text);
    return EXIT.OK;
  }
  // As Vector: an existing file is never overwritten.
  if (existsSync(file)) {
    process.stderr.write(`failed to write file: ${JSON.stringify(file)} already exists\n`);
    return EXIT.SOFTWARE;
  }
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text, { flag: 'wx' });
  } catch (error) {
    process.stderr.write(`failed to write file: ${(error as Error).message}\n`);
    return EXIT.SOFTWARE;
  }
  process.stdout.write(`Config file written to ${JSON.stringify(file)}\n`);
  return EXIT.OK;
}

export function registerGenerate(cli: CAC): Command {
  return cli
    .command('generate [pipeline]', 'Generate a configuration containing a list of components')
    .option('-f, --fragment', 'Skip generating global fields')
    .option('--file <path>', 'Write the configuration to this file (never overwrites one)')
    .option('--format <format>', 'yaml, toml or json (default: yaml, or the --file extension)')
    .usage('generate [options] [sources/transforms/sinks], e.g. svc generate file/remap,filter/console')
    .action(async (pipeline: string | undefined, parsed: Record<string, unknown>) => {
      process.exitCode = await runGenerate(pipeline, parsed);
    });
}
