// `svc test [paths...]`: runs the configuration's unit tests and prints Vector's report.

import type { CAC, Command } from 'cac';
import { configLocations } from './root-options.js';
import type { UnitTests } from '../host/index.js';
import { configFileRootOptions, withConfigFileOptions } from './config-files.js';
import { logHubFor } from './service.js';
import { useColor } from './usage.js';

async function runUnitTests(paths: string[], parsed: Record<string, unknown>): Promise<number> {
  // Loaded here, not at the top: the other commands (a one-shot `svc vrl`) need none of the pipeline.
  const { ConfigError, EXIT, loadPipelineConfig, UnitTests } = await import('../host/index.js');
  const options = configFileRootOptions(paths, parsed);
  const hub = logHubFor(options, 1);
  const log = hub.logger('svc');
  const color = useColor(parsed.color, process.stdout);
  const paint = (text: string, code: number) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const out = (text: string) => process.stdout.write(text);

  out('Running tests\n');
  let tests: UnitTests;
  try {
    // Tests need no sources or sinks: they replace them.
    const config = await loadPipelineConfig({
      locations: configLocations(options),
      interpolate: !options.disableEnvVarInterpolation,
      allowEmptyConfig: true,
    });
    tests = await UnitTests.build(config, {
      log,
      logHub: hub,
      chunkSize: options.chunkSizeEvents,
      maxDecompressedSize: options.maxDecompressedSizeBytes,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.error(`Failed to execute tests:\n${error.errors.join('\n')}.`);
    return EXIT.CONFIG;
  }
  if (tests.count === 0) {
    out(`${paint('No tests found.', 33)}\n`);
    return EXIT.OK;
  }
  const failed: Array<{ name: string; errors: string[] }> = [];
  for await (const result of tests.run()) {
    out(`test ${result.name} ... ${result.errors.length === 0 ? paint('passed', 32) : paint('failed', 31)}\n`);
    if (result.errors.length > 0) failed.push(result);
  }
  if (failed.length === 0) return EXIT.OK;
  out('\nfailures:\n');
  for (const { name, errors } of failed) {
    out(`\ntest ${name}:\n\n`);
    for (const error of errors) out(`${error}\n\n`);
  }
  return EXIT.CONFIG;
}

export function registerUnitTests(cli: CAC): Command {
  const command = cli.command('test [...paths]', 'Run configuration unit tests, then exit (experimental)');
  return withConfigFileOptions(command).action(async (paths: string[], parsed: Record<string, unknown>) => {
    process.exitCode = await runUnitTests(paths, parsed);
  });
}
