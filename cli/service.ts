// `svc [options]` and `svc run [options]`: start the service on a configuration. The options come from the
// table in cli/root-options.ts (flags, SVC_* variables, defaults); this file only wires them into cac.

import type { CAC, Command } from 'cac';
import {
  ROOT_OPTIONS,
  resolveRootOptions,
  configLocations,
  type RootOptions,
  type RootOptionSpec,
} from './root-options.js';
import { LogHub } from '../host/early.js';
import { UsageError } from './usage.js';
import { takeEarlyWorkers } from './early-worker.js';

/** Declares the root options on a command (the root command itself, `run`, or those of them `only` keeps). */
export function withRootOptions(command: Command, only: (spec: RootOptionSpec) => boolean = () => true): Command {
  for (const spec of ROOT_OPTIONS) {
    if (spec.key === 'color' || !only(spec)) continue; // --color: declared once on the CLI, shared with every command
    const names = spec.short ? `${spec.short}, ${spec.flag}` : spec.flag;
    const value = spec.kind === 'uint' || spec.kind === 'enum' ? ' <value>' : spec.kind === 'paths' ? ' <paths>' : '';
    const env = spec.env ? ` (env ${spec.env})` : '';
    command.option(`${names}${value}`, `${spec.description}${env}`);
  }
  return command;
}

/** cac's parse of the root options, as `resolveRootOptions` takes them: only what was given. */
function givenRootFlags(parsed: Record<string, unknown>): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const spec of ROOT_OPTIONS) {
    const value = parsed[spec.key];
    if (value === undefined) continue;
    flags[spec.key] = spec.kind === 'count' ? (Array.isArray(value) ? value.length : value === true ? 1 : 0) : value;
  }
  // cac reads `--no-graceful-shutdown-limit` as the negation of `--graceful-shutdown-limit`.
  if (parsed.gracefulShutdownLimit === false) flags.noGracefulShutdownLimit = true;
  return flags;
}

/** Resolves flags and environment, or throws a UsageError listing what is wrong. */
export function rootOptions(parsed: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): RootOptions {
  const { options, errors } = resolveRootOptions(givenRootFlags(parsed), env);
  if (!options) throw new UsageError(errors.join('; '));
  return options;
}

export function logHubFor(options: RootOptions, quieter = 0): LogHub {
  const level = options.logLevel;
  const levels = ['off', 'error', 'warn', 'info', 'debug', 'trace'] as const;
  const shifted = quieter > 0 && level !== 'off' ? levels[Math.max(0, levels.indexOf(level) - quieter)]! : level;
  return new LogHub({
    level: shifted,
    format: options.logFormat,
    color: options.color === 'always' || (options.color === 'auto' && process.stderr.isTTY === true),
    rateLimitSecs: options.internalLogRateLimit,
    sourceRateLimitSecs: options.internalLogsSourceRateLimit,
    backtraces: Boolean(process.env.RUST_BACKTRACE && process.env.RUST_BACKTRACE !== '0') || options.verbose > 0,
    write: (line) => process.stderr.write(line),
  });
}

async function runServiceCommand(
  args: string[] | undefined,
  parsed: Record<string, unknown>,
  version: string,
): Promise<void> {
  if (args && args.length > 0) throw new UsageError(`unknown command '${args[0]}'`);
  const options = rootOptions(parsed);
  const hub = logHubFor(options);
  const log = hub.logger('svc');
  // The transform workers boot while this thread loads the service and reads the configuration (started by
  // cli/bin.ts, or here when svc was started through cli/main.ts).
  const earlyWorkers = await takeEarlyWorkers(options.threads);
  const { runService } = await import('../host/service.js');
  const code = await runService({
    locations: configLocations(options),
    interpolate: !options.disableEnvVarInterpolation,
    allowEmptyConfig: options.allowEmptyConfig,
    requireHealthy: options.requireHealthy,
    threads: options.threads,
    chunkSize: options.chunkSizeEvents,
    maxDecompressedSize: options.maxDecompressedSizeBytes,
    gracefulShutdownLimitSecs: options.gracefulShutdownLimitSecs,
    watch: options.watchConfig
      ? { method: options.watchConfigMethod, pollIntervalSecs: options.watchConfigPollIntervalSeconds }
      : undefined,
    log,
    logHub: hub,
    version,
    earlyWorkers,
  });
  // Sockets or timers of stopped components must not keep the process alive.
  process.exit(code);
}

/** Registers `run` and the default (root) command. */
export function registerService(cli: CAC, version: string): Command[] {
  const run = withRootOptions(cli.command('run', 'Start the service (the same as svc without a command)')).action(
    (parsed: Record<string, unknown>) => runServiceCommand(undefined, parsed, version),
  );
  const root = withRootOptions(cli.command('[...args]', 'Start the service on its configuration')).action(
    (args: string[], parsed: Record<string, unknown>) => runServiceCommand(args, parsed, version),
  );
  return [run, root];
}
