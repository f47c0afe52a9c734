// The transform workers of a service run, started before the CLI's modules load: a worker takes about as
// long to boot as this thread takes to load the CLI, the service and the configuration, and on other cores
// the two overlap instead of adding up (the start-up of a short pipeline run, and the time until every
// worker takes batches).

import { availableParallelism } from 'node:os';
import type { WorkerThread } from '../host/topology/executor.js';

/** Arguments after which svc does not run the service (subcommands; help and version). */
const NOT_THE_SERVICE = new Set(['vrl', 'generate', 'graph', 'list', 'test', 'validate', 'help', '-h', '--help', '-V', '--version']);

let early: Promise<WorkerThread[]> | undefined;

/** Starts the workers when `argv` (after the script) runs the service: as many as `--threads` will say, read
 * roughly here (the service starts or stops the difference once it has parsed its options). */
export function startEarlyWorkers(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  if (argv.some((argument) => NOT_THE_SERVICE.has(argument))) return;
  const count = Math.min(threadsOf(argv, env) ?? availableParallelism(), availableParallelism());
  // Until the service takes them, the workers must not keep alive a run that ends otherwise (a usage error).
  early = import('../host/topology/executor.js').then(({ WorkerThread }) =>
    Array.from({ length: count }, () => {
      const worker = new WorkerThread();
      worker.keepAlive(false);
      return worker;
    }),
  );
}

/** `--threads N`, `--threads=N`, `-t N` or SVC_THREADS, when one is a positive integer. */
function threadsOf(argv: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  let text = env.SVC_THREADS;
  argv.forEach((argument, i) => {
    if (argument === '--threads' || argument === '-t') text = argv[i + 1];
    else if (argument.startsWith('--threads=')) text = argument.slice('--threads='.length);
  });
  const threads = Number(text);
  return Number.isInteger(threads) && threads > 0 ? threads : undefined;
}

/** `count` workers for the service: those `startEarlyWorkers` started (once), the rest started now, extra
 * ones stopped. */
export async function takeEarlyWorkers(count: number): Promise<WorkerThread[]> {
  const started = (await early) ?? [];
  early = undefined;
  for (const extra of started.splice(count)) void extra.terminate();
  started.forEach((worker) => worker.keepAlive(true));
  if (started.length === count) return started;
  const { WorkerThread } = await import('../host/topology/executor.js');
  return [...started, ...Array.from({ length: count - started.length }, () => new WorkerThread())];
}
