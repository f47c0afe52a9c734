// The reference engine (VRL 0.25, @bpinternal/verel) run in child processes (see reference-child.ts).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ReferenceRequest {
  /** Programs to check only: the answer per program is its error codes. */
  probe?: string[];
  cases?: { program: string; event: unknown }[];
}

/** What the reference engine did with one (program, event): its output, a compile error code, or a runtime error text. */
export type ReferenceOutcome =
  | { ok: { result: unknown; event: unknown } }
  | { compile: number }
  | { runtime: string }
  /** The engine panicked (a trap in its wasm) or killed its process on this case. */
  | { aborted: string };

/** Exit code of a child that stopped after a panic of the engine, to be replaced by a fresh one. */
export const RESTART = 3;

const child = fileURLToPath(new URL('./reference-child.js', import.meta.url));

/** Answers every request item in order; a child that dies is replaced and the item it died on is `aborted`. */
function run(request: ReferenceRequest): unknown[] {
  const items: unknown[] = request.probe ?? request.cases ?? [];
  const answers: unknown[] = [];
  while (answers.length < items.length) {
    const rest = items.slice(answers.length);
    const input = JSON.stringify(request.probe ? { probe: rest } : { cases: rest });
    const done = spawnSync(process.execPath, [child], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      timeout: 120_000,
    });
    const lines = done.stdout.split('\n').filter(Boolean);
    answers.push(...lines.map((line) => JSON.parse(line)));
    if (done.status === RESTART) continue;
    if (answers.length < items.length && done.status !== 0) {
      const why = done.signal ?? `exit ${done.status}: ${(done.stderr || '').trim().split('\n')[0]}`;
      answers.push({ aborted: why });
    } else if (answers.length < items.length) {
      throw new Error(`reference child ended after ${answers.length} of ${items.length} answers`);
    }
  }
  return answers;
}

/** The error codes the reference engine's checker gives each program. */
export function referenceCheck(programs: readonly string[]): number[][] {
  return run({ probe: [...programs] }) as number[][];
}

export function referenceRun(cases: { program: string; event: unknown }[]): ReferenceOutcome[] {
  return run({ cases }) as ReferenceOutcome[];
}
