import { availableParallelism } from 'node:os';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configLocations, logLevel, resolveRootOptions, ROOT_OPTIONS } from '../../cli/root-options.js';

test('defaults as the spec lists them', () => {
  const { options, errors } = resolveRootOptions({}, {});
  assert.equal(errors, []);
  assert.equal(options, {
    allowEmptyConfig: false,
    noGracefulShutdownLimit: false,
    opensslNoProbe: false,
    quiet: 0,
    verbose: 0,
    watchConfig: false,
    disableEnvVarInterpolation: false,
    chunkSizeEvents: 1000,
    color: 'auto',
    config: [],
    configDir: [],
    configJson: [],
    configToml: [],
    configYaml: [],
    gracefulShutdownLimitSecs: 60,
    internalLogRateLimit: 10,
    logFormat: 'text',
    maxDecompressedSizeBytes: 104857600,
    threads: availableParallelism(),
    watchConfigMethod: 'recommended',
    watchConfigPollIntervalSeconds: 60,
    logLevel: 'info',
  });
});

test('every option with a variable is named SVC_ + its flag in upper snake case', () => {
  for (const spec of ROOT_OPTIONS) {
    if (spec.env) assert.is(spec.env, `SVC_${spec.flag.slice(2).replaceAll('-', '_').toUpperCase()}`);
  }
});

test('flags win over variables, variables over defaults; paths split on commas', () => {
  const { options } = resolveRootOptions(
    { threads: '3', config: ['a.yaml,b.toml', 'c/*.json'], watchConfig: true },
    {
      SVC_THREADS: '7',
      SVC_COLOR: 'never',
      SVC_CONFIG: 'ignored.yaml',
      SVC_CONFIG_DIR: '/etc/svc/d1,/etc/svc/d2',
      SVC_REQUIRE_HEALTHY: 'yes',
      SVC_WATCH_CONFIG: 'false',
      SVC_INTERNAL_LOGS_SOURCE_RATE_LIMIT: '5',
    },
  );
  assert.is(options!.threads, 3);
  assert.is(options!.color, 'never');
  assert.equal(options!.config, ['a.yaml', 'b.toml', 'c/*.json']);
  assert.equal(options!.configDir, ['/etc/svc/d1', '/etc/svc/d2']);
  assert.is(options!.requireHealthy, true);
  assert.is(options!.watchConfig, true);
  assert.is(options!.internalLogsSourceRateLimit, 5);
});

test('invalid values and conflicting flags are all reported', () => {
  assert.equal(
    resolveRootOptions(
      { color: 'sometimes', threads: '0', noGracefulShutdownLimit: true, gracefulShutdownLimitSecs: 5 },
      { SVC_CHUNK_SIZE_EVENTS: 'lots', SVC_WATCH_CONFIG: 'maybe', SVC_LOG: 'loud' },
    ).errors,
    [
      'invalid value "maybe" for SVC_WATCH_CONFIG: expected true or false',
      'invalid value "lots" for SVC_CHUNK_SIZE_EVENTS: expected a whole number',
      'invalid value "sometimes" for --color: expected one of always, auto, never',
      'invalid value "0" for --threads: expected a number of at least 1',
      '--no-graceful-shutdown-limit cannot be used with --graceful-shutdown-limit-secs',
      'invalid value "loud" for SVC_LOG: expected one of off, error, warn, info, debug, trace',
    ],
  );
  assert.equal(
    resolveRootOptions({}, { SVC_NO_GRACEFUL_SHUTDOWN_LIMIT: 'true', SVC_GRACEFUL_SHUTDOWN_LIMIT_SECS: '9' }).errors,
    ['--no-graceful-shutdown-limit cannot be used with --graceful-shutdown-limit-secs'],
  );
  assert.is(resolveRootOptions({ noGracefulShutdownLimit: true }, {}).options!.gracefulShutdownLimitSecs, undefined);
});

test('log level: -v/-q steps from info, -q wins, SVC_LOG overrides both', () => {
  assert.equal([logLevel(0, 0), logLevel(1, 0), logLevel(2, 0), logLevel(5, 0)], ['info', 'debug', 'trace', 'trace']);
  assert.equal([logLevel(0, 1), logLevel(0, 2), logLevel(0, 3), logLevel(2, 1)], ['warn', 'error', 'off', 'warn']);
  assert.is(resolveRootOptions({ verbose: 2 }, {}).options!.logLevel, 'trace');
  assert.is(resolveRootOptions({ verbose: 2 }, { SVC_LOG: 'WARN' }).options!.logLevel, 'warn');
});

test('config locations: the default path only when nothing is given; forced formats kept', () => {
  const none = { config: [], configDir: [], configJson: [], configToml: [], configYaml: [] };
  assert.equal(configLocations(none), { files: [{ path: '/etc/svc/svc.yaml' }], dirs: [] });
  assert.equal(configLocations({ ...none, configDir: ['/d'] }), { files: [], dirs: ['/d'] });
  assert.equal(configLocations({ ...none, config: ['a.yaml'], configJson: ['b.conf'] }), {
    files: [{ path: 'a.yaml' }, { path: 'b.conf', format: 'json' }],
    dirs: [],
  });
});

test.run();
