// Differential testing against the reference engine: generated (program, event) pairs run through svc's
// library API and through VRL 0.25 (test/support/reference.ts), outputs brought to one JSON shape and compared.
import { compile, CompileError, Regex, RemapRuntimeError, Timestamp } from '../../runtime/index.js';
import { FUNCTIONS } from '../../compiler/functions/index.js';
import { ProgramGenerator, Random, randomEvent, type Callable } from './remap-gen.js';
import { referenceCheck, referenceRun, type ReferenceOutcome } from './reference.js';

export interface Case {
  program: string;
  event: unknown;
}

/**
 * Functions 0.25 and 0.35 both have (under the name 0.25 knows), without the parameters 0.25 lacks, and
 * without `excluded` ones (changed by design). Asks the reference's checker: a function it lacks is E105,
 * a parameter it lacks E108.
 */
export function sharedFunctions(excluded: ReadonlySet<string>): Callable[] {
  const candidates = FUNCTIONS.filter((def) => def.pure && ![def.name, ...def.aliases].some((n) => excluded.has(n)));
  const names = candidates.flatMap((def) => [def.name, ...def.aliases]);
  const nameCodes = referenceCheck(names.map((n) => `${n}()`));
  const known = new Set(names.filter((_, i) => !nameCodes[i]!.includes(105)));
  const shared: Callable[] = [];
  for (const def of candidates) {
    const name = [def.name, ...def.aliases].find((n) => known.has(n));
    if (name) shared.push({ name, def });
  }
  const params = shared.flatMap((f) => f.def.parameters.map((p) => `${f.name}(${p.name}: null)`));
  const codes = referenceCheck(params);
  let i = 0;
  return shared.map((f) => {
    const parameters = f.def.parameters.filter(() => !codes[i++]!.includes(108));
    return { name: f.name, def: { ...f.def, parameters } };
  });
}

/**
 * `programs` generated programs that the reference engine compiles, each with `eventsPerProgram` generated
 * events. Programs 0.25's checker rejects are skipped (their count is returned): where 0.25 rejects, there
 * is nothing to compare, and it rejects what 0.35 accepts (literal checks, type definitions fixed since).
 */
export function generateCases(
  seed: number,
  functions: readonly Callable[],
  programs: number,
  eventsPerProgram: number,
): { groups: Case[][]; skipped: number } {
  const random = new Random(seed);
  const generator = new ProgramGenerator(random, { functions });
  const groups: Case[][] = [];
  let skipped = 0;
  while (groups.length < programs) {
    const candidates = Array.from({ length: programs }, () => generator.program());
    const codes = referenceCheck(candidates);
    candidates.forEach((program, i) => {
      if (codes[i]!.length > 0 || groups.length >= programs) {
        skipped += codes[i]!.length > 0 ? 1 : 0;
        return;
      }
      groups.push(Array.from({ length: eventsPerProgram }, () => ({ program, event: randomEvent(random) })));
    });
  }
  return { groups, skipped };
}

/** svc's outcome in the reference's shape; `exception` is anything that is neither a compile nor a runtime error. */
export type Outcome = Exclude<ReferenceOutcome, { aborted: string }> | { exception: string };

/** Values as the reference engine hands them out through JSON: numbers, RFC 3339 timestamps, regex patterns. */
function toReferenceShape(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Timestamp) return value.toString();
  if (value instanceof Regex) return value.pattern;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(toReferenceShape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toReferenceShape(v)]));
  }
  return value;
}

/** Runs each group's program (compiled once) on each of its events. */
export async function svcRun(groups: readonly Case[][]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const group of groups) {
    let program;
    try {
      program = await compile(group[0]!.program, { timezone: 'UTC' });
    } catch (error) {
      const outcome: Outcome =
        error instanceof CompileError ? { compile: error.diagnostics[0]?.code ?? 0 } : { exception: String(error) };
      for (const _ of group) outcomes.push(outcome);
      continue;
    }
    for (const { event } of group) {
      try {
        const { result, event: after } = program.run(event);
        outcomes.push({ ok: { result: toReferenceShape(result), event: toReferenceShape(after) } });
      } catch (error) {
        outcomes.push(error instanceof RemapRuntimeError ? { runtime: error.message } : { exception: String(error) });
      }
    }
  }
  return outcomes;
}

/** JSON text with object keys sorted, so that key order does not count. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export type Verdict = 'agree' | 'reference-aborted' | 'differ';

/**
 * Compile errors agree when both engines reject the program (codes and texts changed between 0.25 and
 * 0.35); runtime errors agree when both fail with the same text; outputs agree when their JSON is equal.
 */
export function compare(ours: Outcome, theirs: ReferenceOutcome): Verdict {
  if ('aborted' in theirs) return 'reference-aborted';
  if ('compile' in ours || 'compile' in theirs) return 'compile' in ours && 'compile' in theirs ? 'agree' : 'differ';
  if ('runtime' in ours || 'runtime' in theirs)
    return 'runtime' in ours && 'runtime' in theirs && ours.runtime === theirs.runtime ? 'agree' : 'differ';
  if ('ok' in ours && 'ok' in theirs) return canonical(ours.ok) === canonical(theirs.ok) ? 'agree' : 'differ';
  return 'differ';
}

export { referenceRun };
