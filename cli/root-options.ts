// The root command's flags and options (spec 1, checklist B.1/B.2) with their SVC_* environment variables
// and defaults, as a table, and their resolution from parsed CLI flags and the environment:
// a flag given on the command line wins over its variable, which wins over the default.

import { availableParallelism } from 'node:os';
import type { ConfigLocations } from '../host/index.js';

type OptionKind = 'flag' | 'count' | 'uint' | 'enum' | 'paths';

export interface RootOptionSpec {
  /** Key in the parsed flags (camelCase of the long name, as cac gives it) and in RootOptions. */
  key: keyof RootOptions;
  flag: string;
  short?: string;
  env?: string;
  kind: OptionKind;
  /** Allowed values of an enum. */
  values?: readonly string[];
  /** Default when neither the flag nor the variable is given; unset means none. */
  default?: boolean | number | string | string[];
  description: string;
}

/** The resolved root options. */
export interface RootOptions {
  allowEmptyConfig: boolean;
  noGracefulShutdownLimit: boolean;
  opensslNoProbe: boolean;
  quiet: number;
  verbose: number;
  /** Unset: the config's `healthchecks.require_healthy` decides. */
  requireHealthy?: boolean;
  watchConfig: boolean;
  disableEnvVarInterpolation: boolean;
  chunkSizeEvents: number;
  color: 'always' | 'auto' | 'never';
  config: string[];
  configDir: string[];
  configJson: string[];
  configToml: string[];
  configYaml: string[];
  /** Unset with --no-graceful-shutdown-limit. */
  gracefulShutdownLimitSecs?: number;
  internalLogRateLimit: number;
  internalLogsSourceRateLimit?: number;
  logFormat: 'json' | 'text';
  maxDecompressedSizeBytes: number;
  threads: number;
  watchConfigMethod: 'recommended' | 'poll';
  watchConfigPollIntervalSeconds: number;
  /** From SVC_LOG, else from -v/-q. */
  logLevel: LogLevel;
}

export const ROOT_OPTIONS: readonly RootOptionSpec[] = [
  {
    key: 'allowEmptyConfig',
    flag: '--allow-empty-config',
    env: 'SVC_ALLOW_EMPTY_CONFIG',
    kind: 'flag',
    default: false,
    description: 'Run with a config that has no components (a stub to be replaced later, e.g. with --watch-config)',
  },
  {
    key: 'noGracefulShutdownLimit',
    flag: '--no-graceful-shutdown-limit',
    env: 'SVC_NO_GRACEFUL_SHUTDOWN_LIMIT',
    kind: 'flag',
    default: false,
    description: 'Never time out the graceful shutdown after SIGINT/SIGTERM',
  },
  {
    key: 'opensslNoProbe',
    flag: '--openssl-no-probe',
    env: 'SVC_OPENSSL_NO_PROBE',
    kind: 'flag',
    default: false,
    description: 'Do not probe root-certificate locations (SSL_CERT_FILE/SSL_CERT_DIR for exec children)',
  },
  {
    key: 'quiet',
    flag: '--quiet',
    short: '-q',
    kind: 'count',
    default: 0,
    description: 'Less internal logging; repeatable; overrides --verbose',
  },
  {
    key: 'verbose',
    flag: '--verbose',
    short: '-v',
    kind: 'count',
    default: 0,
    description: 'More internal logging; repeatable',
  },
  {
    key: 'requireHealthy',
    flag: '--require-healthy',
    short: '-r',
    env: 'SVC_REQUIRE_HEALTHY',
    kind: 'flag',
    description: 'Exit on startup if a sink fails its healthcheck; overrides healthchecks.require_healthy',
  },
  {
    key: 'watchConfig',
    flag: '--watch-config',
    short: '-w',
    env: 'SVC_WATCH_CONFIG',
    kind: 'flag',
    default: false,
    description: 'Watch the config files and reload on change',
  },
  {
    key: 'disableEnvVarInterpolation',
    flag: '--disable-env-var-interpolation',
    env: 'SVC_DISABLE_ENV_VAR_INTERPOLATION',
    kind: 'flag',
    default: false,
    description: 'Do not replace $VAR references in config files',
  },
  {
    key: 'chunkSizeEvents',
    flag: '--chunk-size-events',
    env: 'SVC_CHUNK_SIZE_EVENTS',
    kind: 'uint',
    default: 1000,
    description: 'Events batched per source send; sizes source output buffers',
  },
  {
    key: 'color',
    flag: '--color',
    env: 'SVC_COLOR',
    kind: 'enum',
    values: ['always', 'auto', 'never'],
    default: 'auto',
    description: 'When to use ANSI colors (auto: when stdout is a terminal)',
  },
  {
    key: 'config',
    flag: '--config',
    short: '-c',
    env: 'SVC_CONFIG',
    kind: 'paths',
    default: [],
    description: 'Config files or globs (format from the extension, else YAML); default /etc/svc/svc.yaml',
  },
  {
    key: 'configDir',
    flag: '--config-dir',
    short: '-C',
    env: 'SVC_CONFIG_DIR',
    kind: 'paths',
    default: [],
    description: 'Config directories (.toml, .json, .yaml, .yml files)',
  },
  {
    key: 'configJson',
    flag: '--config-json',
    env: 'SVC_CONFIG_JSON',
    kind: 'paths',
    default: [],
    description: 'Config files read as JSON',
  },
  {
    key: 'configToml',
    flag: '--config-toml',
    env: 'SVC_CONFIG_TOML',
    kind: 'paths',
    default: [],
    description: 'Config files read as TOML',
  },
  {
    key: 'configYaml',
    flag: '--config-yaml',
    env: 'SVC_CONFIG_YAML',
    kind: 'paths',
    default: [],
    description: 'Config files read as YAML',
  },
  {
    key: 'gracefulShutdownLimitSecs',
    flag: '--graceful-shutdown-limit-secs',
    env: 'SVC_GRACEFUL_SHUTDOWN_LIMIT_SECS',
    kind: 'uint',
    default: 60,
    description: 'Seconds to wait after SIGINT/SIGTERM before forcing shutdown',
  },
  {
    key: 'internalLogRateLimit',
    flag: '--internal-log-rate-limit',
    short: '-i',
    env: 'SVC_INTERNAL_LOG_RATE_LIMIT',
    kind: 'uint',
    default: 10,
    description: 'Window in seconds for rate limiting repeated internal logs on stdout/stderr',
  },
  {
    key: 'internalLogsSourceRateLimit',
    flag: '--internal-logs-source-rate-limit',
    env: 'SVC_INTERNAL_LOGS_SOURCE_RATE_LIMIT',
    kind: 'uint',
    description: 'Window in seconds for rate limiting what internal_logs sources receive; unset: no limit',
  },
  {
    key: 'logFormat',
    flag: '--log-format',
    env: 'SVC_LOG_FORMAT',
    kind: 'enum',
    values: ['json', 'text'],
    default: 'text',
    description: "Format of the service's own logs",
  },
  {
    key: 'maxDecompressedSizeBytes',
    flag: '--max-decompressed-size-bytes',
    env: 'SVC_MAX_DECOMPRESSED_SIZE_BYTES',
    kind: 'uint',
    default: 104857600,
    description: 'Largest payload a source accepts after decompression',
  },
  {
    key: 'threads',
    flag: '--threads',
    short: '-t',
    env: 'SVC_THREADS',
    kind: 'uint',
    default: availableParallelism(),
    description: 'Processing threads (default: the available cores)',
  },
  {
    key: 'watchConfigMethod',
    flag: '--watch-config-method',
    env: 'SVC_WATCH_CONFIG_METHOD',
    kind: 'enum',
    values: ['recommended', 'poll'],
    default: 'recommended',
    description: 'recommended: file system events; poll: for network file systems',
  },
  {
    key: 'watchConfigPollIntervalSeconds',
    flag: '--watch-config-poll-interval-seconds',
    env: 'SVC_WATCH_CONFIG_POLL_INTERVAL_SECONDS',
    kind: 'uint',
    default: 60,
    description: 'Poll interval of --watch-config-method poll',
  },
];

/** Options that must be at least 1. */
const POSITIVE = new Set<keyof RootOptions>(['chunkSizeEvents', 'threads', 'watchConfigPollIntervalSeconds']);

const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Level from -v/-q counts: info by default, -q warn, -qq error, -qqq off, -v debug, -vv trace; -q wins. */
export function logLevel(verbose: number, quiet: number): LogLevel {
  const info = LOG_LEVELS.indexOf('info');
  const index = quiet > 0 ? Math.max(0, info - quiet) : Math.min(LOG_LEVELS.length - 1, info + verbose);
  return LOG_LEVELS[index]!;
}

/** clap's boolish values, which Vector's flags accept in their variables. */
const BOOLISH: Record<string, boolean> = {
  y: true,
  yes: true,
  t: true,
  true: true,
  on: true,
  1: true,
  n: false,
  no: false,
  f: false,
  false: false,
  off: false,
  0: false,
};

/** Converts one given value to the option's kind; `source` names where it came from, for errors. */
function convert(spec: RootOptionSpec, value: unknown, source: string, errors: string[]): unknown {
  const invalid = (expected: string) => {
    errors.push(`invalid value ${JSON.stringify(value)} for ${source}: expected ${expected}`);
    return undefined;
  };
  switch (spec.kind) {
    case 'flag': {
      if (typeof value === 'boolean') return value;
      const flag = BOOLISH[String(value).toLowerCase()];
      return flag ?? invalid('true or false');
    }
    case 'count':
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (Array.isArray(value)) return value.length;
      return invalid('a count');
    case 'uint': {
      const number = typeof value === 'number' ? value : /^\d+$/.test(String(value).trim()) ? Number(value) : NaN;
      if (!Number.isSafeInteger(number) || number < 0) return invalid('a whole number');
      if (POSITIVE.has(spec.key) && number === 0) return invalid('a number of at least 1');
      return number;
    }
    case 'enum':
      return spec.values!.includes(String(value)) ? String(value) : invalid(`one of ${spec.values!.join(', ')}`);
    case 'paths':
      // As in Vector, several paths may be given in one value, separated by commas.
      return (Array.isArray(value) ? value : [value])
        .flatMap((v) => String(v).split(','))
        .map((p) => p.trim())
        .filter((p) => p !== '');
  }
}

/**
 * Resolves the root options from parsed flags (keys as in ROOT_OPTIONS; only flags actually given, no
 * defaults filled in by the parser) and the environment. `options` is set when `errors` is empty.
 */
export function resolveRootOptions(
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): { options?: RootOptions; errors: string[] } {
  const errors: string[] = [];
  const resolved: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const spec of ROOT_OPTIONS) {
    const fromFlag = flags[spec.key];
    const fromEnv = spec.env === undefined ? undefined : env[spec.env];
    if (fromFlag !== undefined) {
      resolved[spec.key] = convert(spec, fromFlag, spec.flag, errors);
      given.add(spec.key);
    } else if (fromEnv !== undefined && fromEnv !== '') {
      resolved[spec.key] = convert(spec, fromEnv, spec.env!, errors);
      given.add(spec.key);
    } else if (spec.default !== undefined) {
      resolved[spec.key] = spec.default;
    }
  }
  if (resolved.noGracefulShutdownLimit === true) {
    if (given.has('gracefulShutdownLimitSecs')) {
      errors.push('--no-graceful-shutdown-limit cannot be used with --graceful-shutdown-limit-secs');
    }
    delete resolved.gracefulShutdownLimitSecs;
  }
  const level = env.SVC_LOG?.trim().toLowerCase();
  if (level !== undefined && level !== '' && !(LOG_LEVELS as readonly string[]).includes(level)) {
    errors.push(`invalid value ${JSON.stringify(env.SVC_LOG)} for SVC_LOG: expected one of ${LOG_LEVELS.join(', ')}`);
  }
  resolved.logLevel = level || logLevel(resolved.verbose as number, resolved.quiet as number);
  return errors.length > 0 ? { errors } : { options: resolved as unknown as RootOptions, errors };
}

/** The default configuration file, used when no config path or directory is given. */
const DEFAULT_CONFIG_PATH = '/etc/svc/svc.yaml';

/** What to load: --config paths (format from extension), forced-format paths, and directories. */
export function configLocations(
  options: Pick<RootOptions, 'config' | 'configDir' | 'configJson' | 'configToml' | 'configYaml'>,
): ConfigLocations {
  const files = [
    ...options.config.map((path) => ({ path })),
    ...options.configJson.map((path) => ({ path, format: 'json' as const })),
    ...options.configToml.map((path) => ({ path, format: 'toml' as const })),
    ...options.configYaml.map((path) => ({ path, format: 'yaml' as const })),
  ];
  if (files.length === 0 && options.configDir.length === 0) files.push({ path: DEFAULT_CONFIG_PATH });
  return { files, dirs: options.configDir };
}
