// A fuzzer worker (test/support/fuzz.ts): compiles each program it is sent through the library API, runs
// it on the job's events and reports one outcome per event. It runs in its own process so that a crash,
// an abort or a hang costs this process, never the fuzzer.
import { compile, CompileError, RemapRuntimeError } from '../../runtime/index.js';
import type { FuzzJob, Outcome } from './fuzz.js';

/** Above this resident size the worker exits after its job and the fuzzer starts a fresh one. */
const MAX_RSS = 3 * 1024 ** 3;

/** What an error escaping the library API is: a trap is a wasm RuntimeError or svc's own "a bug in svc" wrapper. */
function classify(error: unknown): Outcome {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (error instanceof WebAssembly.RuntimeError || /a bug in svc/.test(message))
    return { kind: 'trap', detail: message };
  return { kind: 'exception', detail: error instanceof Error && error.stack ? error.stack : message };
}

async function runJob(job: FuzzJob): Promise<Outcome[]> {
  let program;
  try {
    program = await compile(job.program, { timezone: 'UTC' });
  } catch (error) {
    const outcome: Outcome =
      error instanceof CompileError
        ? {
            kind: 'diagnostic',
            detail: error.diagnostics[0]?.code === undefined ? error.message : `E${error.diagnostics[0].code}`,
          }
        : classify(error);
    return job.events.map(() => outcome);
  }
  return job.events.map((event) => {
    try {
      program.run(event);
      return { kind: 'ok' };
    } catch (error) {
      if (error instanceof RemapRuntimeError) return { kind: 'runtime-error', detail: error.message };
      return classify(error);
    }
  });
}

process.on('message', (job: FuzzJob) => {
  void runJob(job).then((outcomes) => {
    process.send!({ id: job.id, outcomes }, () => {
      if (process.memoryUsage().rss > MAX_RSS) process.exit(0);
    });
  });
});
