// The first transform worker of a service run, started before the CLI's modules load: a worker takes about
// as long to boot as this thread takes to load the CLI, the service and the configuration, and on another
// core the two overlap instead of adding up (the start-up of a short pipeline run).

import { ROOT_OPTIONS } from './root-options.js';
import type { WorkerThread } from '../host/early.js';
import { rawOptionValue } from './usage.js';

/** Arguments after which svc does not run the service (subcommands; help and version). */
const NOT_THE_SERVICE = new Set([
  'vrl',
  'generate',
  'graph',
  'list',
  'tap',
  'test',
  'top',
  'validate',
  'help',
  '-h',
  '--help',
  '-V',
  '--version',
]);

let early: Promise<WorkerThread[]> | undefined;

/** Starts the first worker when `argv` (after the script) runs the service with workers (`--threads`, read
 * roughly here): the others start once the load asks for them (WorkerExecutor), so that they do
 * not take the cores the start-up needs. */
export function startEarlyWorkers(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  if (argv.some((argument) => NOT_THE_SERVICE.has(argument)) || threadsOf(argv, env) < 1) return;
  // Until the service takes it, the worker must not keep alive a run that ends otherwise (a usage error).
  early = import('../host/early.js').then(({ WorkerThread }) => {
    const worker = new WorkerThread();
    worker.keepAlive(false);
    return [worker];
  });
}

/** The `threads` root option as `argv` and `env` give it (its flag, short flag or variable), else its default. */
function threadsOf(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const spec = ROOT_OPTIONS.find((option) => option.key === 'threads')!;
  const flags = spec.short ? [spec.flag, spec.short] : [spec.flag];
  const threads = Number(rawOptionValue(argv, flags) ?? (spec.env && env[spec.env]));
  return Number.isInteger(threads) && threads > 0 ? threads : (spec.default as number);
}

/** The workers `startEarlyWorkers` started (once), at most `count` (extra ones stopped). */
export async function takeEarlyWorkers(count: number): Promise<WorkerThread[]> {
  const started = (await early) ?? [];
  early = undefined;
  for (const extra of started.splice(count)) void extra.terminate();
  started.forEach((worker) => worker.keepAlive(true));
  return started;
}
