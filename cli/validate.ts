// `svc validate [paths...]`: checks a configuration and prints Vector's validation report.

import type { CAC, Command } from 'cac';
import { configLocations } from './root-options.js';
import { configFileRootOptions, withConfigFileOptions } from './config-files.js';
import { logHubFor } from './service.js';
import { useColor } from './usage.js';

/** Vector's (and the spec's) `-ne`, which a command-line parser reads as `-n -e`. */
export function normalizeNoEnvironment(argv: readonly string[]): string[] {
  if (!argv.includes('validate')) return [...argv];
  return argv.map((arg) => (arg === '-ne' ? '--no-environment' : arg));
}

async function runValidate(paths: string[], parsed: Record<string, unknown>): Promise<number> {
  // Loaded here, not at the top: the other commands (a one-shot `svc vrl`) need none of the pipeline.
  const { validate } = await import('../host/index.js');
  const options = configFileRootOptions(paths, parsed);
  // As Vector's validate, the service's own logs are one step quieter than the service's.
  const hub = logHubFor(options, 1);
  return validate({
    locations: configLocations(options),
    interpolate: !options.disableEnvVarInterpolation,
    allowEmptyConfig: options.allowEmptyConfig,
    requireHealthy: options.requireHealthy,
    threads: 0,
    chunkSize: options.chunkSizeEvents,
    maxDecompressedSize: options.maxDecompressedSizeBytes,
    log: hub.logger('svc'),
    logHub: hub,
    denyWarnings: parsed.denyWarnings === true,
    noEnvironment: parsed.environment === false,
    skipHealthchecks: parsed.skipHealthchecks === true,
    color: useColor(parsed.color, process.stdout),
    write: (text) => process.stdout.write(text),
  });
}

export function registerValidate(cli: CAC): Command {
  const command = withConfigFileOptions(cli.command('validate [...paths]', 'Validate a configuration, then exit'))
    .option('-d, --deny-warnings', 'Fail validation on warnings')
    .option('--no-environment', 'Only load and check the configuration: skip component and health checks (also -ne)')
    .option('--skip-healthchecks', 'Skip health checks');
  // cac gives a `--no-x` flag the default `x = true`, which its help would show as "(default: true)".
  command.options.find((option) => option.rawName === '--no-environment')!.config.default = undefined;
  return command.action(async (paths: string[], parsed: Record<string, unknown>) => {
    const code = await runValidate(paths, parsed);
    // Built components (sockets, timers) must not keep the process alive.
    process.exit(code);
  });
}
