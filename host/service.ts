// `svc` (and `svc run`): the long-running service. Starts the pipeline, then stops it gracefully on
// SIGINT/SIGTERM — sources stop, buffered events drain through the sinks — within the graceful shutdown
// limit; a second signal, or the limit running out, forces the exit. SIGHUP, and with --watch-config a
// changed file, reloads the configuration into the running pipeline.

import { isDeepStrictEqual } from 'node:util';
import type { ApiContext } from './api/context.js';
import { ConfigError } from './config/errors.js';
import type { ConfigWatcher } from './config/watch.js';
import type { Logger } from './log.js';
import {
  buildPipeline,
  EXIT,
  loadPipelineConfig,
  reloadPipeline,
  runHealthchecks,
  type BuiltPipeline,
  type PipelineOptions,
  type ReloadChanges,
} from './pipeline.js';
import type { Graph } from './topology/graph.js';

export interface ServiceOptions extends PipelineOptions {
  /** Seconds to wait for the drain after a signal; undefined waits for ever (--no-graceful-shutdown-limit). */
  gracefulShutdownLimitSecs: number | undefined;
  version: string;
  /** Signals to handle; the process's by default. */
  signals?: NodeJS.EventEmitter;
  /** --watch-config: reload when a configuration file, or a file a component reads, changes. */
  watch?: { method: 'recommended' | 'poll'; pollIntervalSecs: number };
}

/** Runs the service to its end; resolves with the process exit code. */
export async function runService(options: ServiceOptions): Promise<number> {
  const log = options.log;
  const signals = options.signals ?? process;
  // SIGHUP reloads the configuration (systemd's ExecReload); one received while starting waits for the start.
  let requestReload = () => {
    reloadWanted = true;
  };
  let reloadWanted = false;
  const onHangup = () => {
    log.info('Signal received.', { signal: 'SIGHUP', internal_log_rate_limit: false });
    requestReload();
  };
  signals.on('SIGHUP', onHangup);
  try {
    return await serve(options, (reload) => {
      requestReload = reload;
      if (reloadWanted) reload();
    });
  } finally {
    signals.off('SIGHUP', onHangup);
  }
}

/** Starts the pipeline and runs it to its end; `reloadable` is called once it runs, with what reloads it. */
async function serve(options: ServiceOptions, reloadable: (reload: () => void) => void): Promise<number> {
  const log = options.log;
  const paths = [...options.locations.files.map((file) => file.path), ...options.locations.dirs];
  log.info('Loading configs.', { paths: paths.join(',') });
  let built: BuiltPipeline;
  try {
    const config = await loadPipelineConfig(options);
    built = await buildPipeline(config, options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    reportConfigErrors(log, error);
    return EXIT.CONFIG;
  }
  const { topology } = built;
  const unhealthy = await runHealthchecks(built, log);
  const requireHealthy = options.requireHealthy ?? built.config.global.healthchecks.require_healthy;
  if (unhealthy.length > 0 && requireHealthy) {
    log.error('Sinks unhealthy: exiting because healthy sinks are required (--require-healthy).');
    topology.stop();
    await topology.close();
    return EXIT.CONFIG;
  }

  const api = new InstanceApi(built, options.version, log);
  if (!(await api.start())) {
    topology.stop();
    await topology.close();
    return EXIT.CONFIG;
  }

  const signals = options.signals ?? process;
  let signalled: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (signalled = resolve));
  const forced = new Promise<number>((resolve) => {
    let received = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      received++;
      if (received > 1) {
        log.warn('Shutting down immediately.', { signal });
        topology.kill();
        resolve(EXIT.SOFTWARE);
        return;
      }
      log.info('Signal received. Shutting down.', { signal });
      topology.stop();
      signalled();
      if (options.gracefulShutdownLimitSecs !== undefined) {
        setTimeout(() => {
          log.error(`Failed to gracefully shut down in ${options.gracefulShutdownLimitSecs} s. Killing components.`);
          topology.kill();
          resolve(EXIT.SOFTWARE);
        }, options.gracefulShutdownLimitSecs * 1000).unref();
      }
    };
    signals.on('SIGINT', onSignal);
    signals.on('SIGTERM', onSignal);
  });

  // After a reload the watcher asks again what to watch (a remap `file` added or moved).
  const reloads = new Reloads(built, options, api, () => watcher?.refresh());
  reloadable(() => reloads.request());
  // The watcher's module loads only with --watch-config.
  let watcher: ConfigWatcher | undefined;
  if (options.watch) {
    const { watchConfig, watchedPaths } = await import('./config/watch.js');
    const { enrichmentTableFiles } = await import('./enrichment/load.js');
    watcher = watchConfig({
      paths: () => watchedPaths(options.locations, built.graph, enrichmentTableFiles(built.config)),
      method: options.watch.method,
      pollIntervalSecs: options.watch.pollIntervalSecs,
      onChange: () => reloads.request(),
      log,
    });
  }

  log.info('svc has started.', { version: options.version, threads: options.threads });
  // The run ends when every source has ended and everything drained. With no sources (--allow-empty-config,
  // or a reload that removed them) nothing ends by itself, and nothing keeps the process alive: a timer
  // does, until a signal or a reload that brings sources.
  const ended = (async () => {
    for (;;) {
      await topology.run();
      if (topology.stopping || topology.sourceCount > 0) return EXIT.OK;
      const keepAlive = setInterval(() => {}, 1 << 30);
      await Promise.race([stopRequested, reloads.next()]);
      clearInterval(keepAlive);
    }
  })();
  const code = await Promise.race([ended, forced]);
  watcher?.close();
  topology.stop();
  await reloads.settled();
  await topology.close();
  await api.close();
  if (code === EXIT.OK) log.info('svc has stopped.');
  return code;
}

/** Reloads of the running pipeline, one at a time: a request during a reload runs one more after it. */
class Reloads {
  private running: Promise<void> | undefined;
  private again = false;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly built: BuiltPipeline,
    private readonly options: ServiceOptions,
    private readonly api: InstanceApi,
    private readonly committed: () => void,
  ) {}

  request(): void {
    if (this.built.topology.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.reload();
      } while (this.again && !this.built.topology.stopping);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves after the next reload that was committed. */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Resolves when no reload is running. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async reload(): Promise<void> {
    const { built, options } = this;
    const old = { graph: built.graph, api: built.config.global.api };
    let changes: ReloadChanges | undefined;
    try {
      changes = await reloadPipeline(built, options);
    } catch (error) {
      // Not a configuration problem (those are reported as such): the running configuration goes on.
      options.log.error(
        `Reload was triggered but failed: ${error instanceof Error ? error.message : String(error)}`,
        {
          error_code: 'reload',
          error_type: 'configuration_failed',
          stage: 'processing',
          internal_log_rate_limit: false,
        },
        error,
      );
      return;
    }
    if (changes === undefined) return;
    this.committed();
    await this.api.reloaded(old.graph, changes, !isDeepStrictEqual(old.api, built.config.global.api));
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** The API server of the instance (when `api.enabled`), restarted when a reload changes `api`. */
class InstanceApi {
  private server: { close(): Promise<void> } | undefined;
  private context: ApiContext | undefined;

  constructor(
    private readonly built: BuiltPipeline,
    private readonly version: string,
    private readonly log: Logger,
  ) {}

  /** Starts it if enabled; false when it could not listen (logged). */
  async start(): Promise<boolean> {
    if (!this.built.config.global.api.enabled) return true;
    // The API's modules (graphql, hono, ws) load only when it is on: a pipeline without it starts sooner.
    const { ApiStartError, instanceApiContext, startInstanceApi } = await import('./api/instance.js');
    this.context ??= instanceApiContext(this.built, this.version);
    try {
      this.server = await startInstanceApi(this.built.config.global.api, this.context, this.log);
      return true;
    } catch (error) {
      if (!(error instanceof ApiStartError)) throw error;
      this.log.error(error.message);
      return false;
    }
  }

  /** A reload was committed: subscribers hear of the components added and removed; a changed `api` restarts
   * the server (a failure to listen is logged, the pipeline goes on). */
  async reloaded(old: Graph, changes: ReloadChanges, apiChanged: boolean): Promise<void> {
    if (this.context) {
      const { announceReload } = await import('./api/instance.js');
      announceReload(this.context, old, changes, this.built.graph);
    }
    if (!apiChanged) return;
    await this.close();
    await this.start();
  }

  async close(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }
}

function reportConfigErrors(log: Logger, error: ConfigError): void {
  for (const problem of error.errors) log.error(`Configuration error: ${problem}`);
}
