// `svc` (and `svc run`): the long-running service. Starts the pipeline, then stops it gracefully on
// SIGINT/SIGTERM — sources stop, buffered events drain through the sinks — within the graceful shutdown
// limit; a second signal, or the limit running out, forces the exit.

import { ConfigError } from './config/errors.js';
import type { Logger } from './log.js';
import { buildPipeline, EXIT, loadPipelineConfig, runHealthchecks, type PipelineOptions } from './pipeline.js';

export interface ServiceOptions extends PipelineOptions {
  /** Seconds to wait for the drain after a signal; undefined waits for ever (--no-graceful-shutdown-limit). */
  gracefulShutdownLimitSecs: number | undefined;
  version: string;
  /** Signals to handle; the process's by default. */
  signals?: NodeJS.EventEmitter;
}

/** Runs the service to its end; resolves with the process exit code. */
export async function runService(options: ServiceOptions): Promise<number> {
  const log = options.log;
  const paths = [...options.locations.files.map((file) => file.path), ...options.locations.dirs];
  log.info('Loading configs.', { paths: paths.join(',') });
  let built;
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
    return EXIT.CONFIG;
  }

  let api;
  if (built.config.global.api.enabled) {
    // The API's modules (graphql, hono, ws) load only when it is on: a pipeline without it starts sooner.
    const { ApiStartError, startInstanceApi } = await import('./api/instance.js');
    try {
      api = await startInstanceApi(built, options.version, log);
    } catch (error) {
      if (!(error instanceof ApiStartError)) throw error;
      log.error(error.message);
      topology.stop();
      return EXIT.CONFIG;
    }
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

  log.info('svc has started.', { version: options.version, threads: options.threads });
  // With no sources (--allow-empty-config) nothing ends by itself, and nothing keeps the process alive:
  // a timer does, until a signal.
  let ended: Promise<number>;
  if (built.config.sources.size === 0) {
    const keepAlive = setInterval(() => {}, 1 << 30);
    ended = stopRequested.then(() => {
      clearInterval(keepAlive);
      return EXIT.OK;
    });
  } else {
    ended = topology.start().then(() => EXIT.OK);
  }
  const code = await Promise.race([ended, forced]);
  await api?.close();
  if (code === EXIT.OK) log.info('svc has stopped.');
  return code;
}

function reportConfigErrors(log: Logger, error: ConfigError): void {
  for (const problem of error.errors) log.error(`Configuration error: ${problem}`);
}
