// The first transform worker of a service run, started before the CLI's modules load: a worker takes about
// as long to boot as this thread takes to load the CLI, the service and the configuration, and on another
// core the two overlap instead of adding up (the start-up of a short pipeline run).

import type { WorkerThread } from '../host/topology/executor.js';

/** Arguments after which svc does not run the service (subcommands; help and version). */
const NOT_THE_SERVICE = new Set(['vrl', 'generate', 'graph', 'list', 'test', 'validate', 'help', '-h', '--help', '-V', '--version']);

let early: Promise<WorkerThread> | undefined;

/** Starts the worker when `argv` (after the script) runs the service. */
export function startEarlyWorker(argv: readonly string[]): void {
  if (argv.some((argument) => NOT_THE_SERVICE.has(argument))) return;
  // Until the service takes it, the worker must not keep alive a run that ends otherwise (a usage error).
  early = import('../host/topology/executor.js').then(({ WorkerThread }) => {
    const worker = new WorkerThread();
    worker.keepAlive(false);
    return worker;
  });
}

/** The worker `startEarlyWorker` started, once; undefined when it started none. */
export function takeEarlyWorker(): Promise<WorkerThread> | undefined {
  const worker = early?.then((started) => {
    started.keepAlive(true);
    return started;
  });
  early = undefined;
  return worker;
}
