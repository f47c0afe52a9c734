// Issue 9: generated (program, event) pairs run by svc and by the reference engine (VRL 0.25, in a child
// process) must agree, except where 0.25 and 0.35 differ by design or a disagreement is listed with its
// reason in test/data/differential/known.json. Deterministic: a fixed seed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compare, generateCases, referenceRun, sharedFunctions, svcRun } from '../support/differential.js';

interface Known {
  /** Functions never generated: changed between 0.25 and 0.35 (the changelog entry), or not comparable. */
  excludedFunctions: { name: string; reason: string }[];
  /** Disagreements left: a pair whose program, svc outcome and reference outcome (as JSON) match every regex given. */
  disagreements: { program?: string; svc?: string; reference?: string; reason: string }[];
}

const known = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../test/data/differential/known.json', import.meta.url)), 'utf8'),
) as Known;
const SEED = 9;
const PROGRAMS = 60;
const EVENTS_PER_PROGRAM = 20;

test(`${PROGRAMS * EVENTS_PER_PROGRAM} generated (program, event) pairs agree with the reference engine`, async () => {
  const functions = sharedFunctions(new Set(known.excludedFunctions.map((f) => f.name)));
  assert.ok(functions.length > 100, `only ${functions.length} functions shared with the reference engine`);
  const { groups } = generateCases(SEED, functions, PROGRAMS, EVENTS_PER_PROGRAM);
  const cases = groups.flat();
  const theirs = referenceRun(cases);
  const ours = await svcRun(groups);
  const counts = { agree: 0, 'reference-aborted': 0, known: 0, differ: 0, ran: 0 };
  const unexplained = new Map<string, string>();
  cases.forEach((c, i) => {
    const [svc, reference] = [JSON.stringify(ours[i]), JSON.stringify(theirs[i])];
    if ('ok' in ours[i]!) counts.ran++;
    let verdict: keyof typeof counts = compare(ours[i]!, theirs[i]!);
    const listed = (k: Known['disagreements'][number]) =>
      (!k.program || new RegExp(k.program).test(c.program)) &&
      (!k.svc || new RegExp(k.svc).test(svc)) &&
      (!k.reference || new RegExp(k.reference).test(reference));
    if (verdict === 'differ' && known.disagreements.some(listed)) verdict = 'known';
    counts[verdict]++;
    if (verdict === 'differ' && !unexplained.has(c.program)) {
      unexplained.set(
        c.program,
        `program:\n${c.program}\nevent: ${JSON.stringify(c.event)}\nsvc:       ${svc}\nreference: ${reference}`,
      );
    }
  });
  // Most pairs must run to the end, or the comparison says little.
  assert.ok(counts.ran > cases.length / 3, `only ${counts.ran} of ${cases.length} pairs ran without an error`);
  assert.is(
    counts.differ,
    0,
    `disagreements ${JSON.stringify(counts)}, one per program:\n\n${[...unexplained.values()].join('\n\n')}`,
  );
});

test.run();
