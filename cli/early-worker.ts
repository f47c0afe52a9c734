// The transform workers of a service run, started before the CLI's modules load: a worker takes about as
// long to boot as this thread takes to load the CLI, the service and the configuration, and on other cores
// the two overlap instead of adding up (the start-up of a short pipeline run, and the time until every
// worker takes batches).

import { availableParallelism } from 'node:os';
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

/** Starts the workers when `argv` (after the script) runs the service: as many as `--threads` will say, read
 * roughly here (the service starts or stops the difference once it has parsed its options), at most one
 * per core. */
export function startEarlyWorkers(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  if (argv.some((argument) => NOT_THE_SERVICE.has(argument))) return;
  const count = Math.min(threadsOf(argv, env), availableParallelism());
  // Until the service takes them, the workers must not keep alive a run that ends otherwise (a usage error).
  early = import('../host/early.js').then(({ WorkerThread }) =>
    Array.from({ length: count }, () => {
      const worker = new WorkerThread();
      worker.keepAlive(false);
      return worker;
    }),
  );
}

/** The `threads` root option as `argv` and `env` give it (its flag, short flag or variable), else its default. */
function threadsOf(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const spec = ROOT_OPTIONS.find((option) => option.key === 'threads')!;
  const flags = spec.short ? [spec.flag, spec.short] : [spec.flag];
  const threads = Number(rawOptionValue(argv, flags) ?? (spec.env && env[spec.env]));
  return Number.isInteger(threads) && threads > 0 ? threads : (spec.default as number);
}

/** `count` workers for the service: those `startEarlyWorkers` started (once), the rest started now, extra
 * ones stopped. */
export async function takeEarlyWorkers(count: number): Promise<WorkerThread[]> {
  const started = (await early) ?? [];
  early = undefined;
  for (const extra of started.splice(count)) void extra.terminate();
  started.forEach((worker) => worker.keepAlive(true));
  if (started.length === count) return started;
  const { WorkerThread } = await import('../host/early.js');
  return [...started, ...Array.from({ length: count - started.length }, () => new WorkerThread())];
}
