// Child process around the reference engine (@bpinternal/verel, VRL 0.25 compiled to wasm): it compiles on
// every call and can abort the whole process on some inputs, so it never runs in the test's own process.
// Reads one JSON request on stdin and writes one JSON line per answer as soon as it has it, so that a
// parent whose child died knows which case killed it (test/support/reference.ts).
import { createRequire } from 'node:module';
import { readFileSync, writeSync } from 'node:fs';
import { RESTART, type ReferenceOutcome, type ReferenceRequest } from './reference.js';

const vrl = createRequire(import.meta.url)('@bpinternal/verel') as {
  check(source: string): { errors: { code: number }[] };
  execute(source: string, event: unknown): { result: unknown; event: unknown };
};

const request = JSON.parse(readFileSync(0, 'utf8')) as ReferenceRequest;
const answer = (value: unknown) => writeSync(1, JSON.stringify(value) + '\n');

if (request.probe) {
  for (const source of request.probe) answer(vrl.check(source).errors.map((e) => e.code));
}
for (const { program, event } of request.cases ?? []) {
  const outcome = execute(program, event);
  answer(outcome);
  // A panic leaves the engine's wasm instance broken (every later call fails): the parent starts a new child.
  if ('aborted' in outcome) process.exit(RESTART);
}

function execute(program: string, event: unknown): ReferenceOutcome {
  try {
    const { result, event: after } = vrl.execute(program, event);
    // JSON text: timestamps become RFC 3339 strings, as the comparison expects.
    return { ok: JSON.parse(JSON.stringify({ result, event: after }) ?? 'null') };
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) return { aborted: error.message };
    const text = String(error instanceof Error ? error.message : error);
    const compile = /^Compilation Error;[\s\S]*?code: (\d+)/.exec(text);
    if (compile) return { compile: Number(compile[1]) };
    return { runtime: text.replace(/^Termination;\n/, '') };
  }
}
