// `npm run fuzz -- [--count N | --seconds T] [--seed S] [--events E] [--jobs J] [--cli-every K] [--out DIR]`
// Runs the fuzzer of test/support/fuzz.ts (built to dist-test/): generated and mutated programs on random events,
// through the library API and `svc vrl`, each in child processes. Prints a table of outcomes, writes the
// failures (a few per distinct failure) as JSON files to DIR (default fuzz-failures/), and exits 1 when any
// run crashed, hung, trapped or threw a non-project exception.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    count: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    events: { type: 'string', default: '20' },
    jobs: { type: 'string', default: '2' },
    'cli-every': { type: 'string', default: '25' },
    timeout: { type: 'string', default: '30000' },
    out: { type: 'string', default: 'fuzz-failures' },
  },
});
const { fuzz, BAD_OUTCOMES } = await import('../dist-test/test/support/fuzz.js');

const options = {
  seed: Number(values.seed),
  programs: values.count !== undefined ? Number(values.count) : values.seconds === undefined ? 1000 : undefined,
  seconds: values.seconds !== undefined ? Number(values.seconds) : undefined,
  eventsPerProgram: Number(values.events),
  jobs: Number(values.jobs),
  cliEvery: Number(values['cli-every']),
  timeoutMs: Number(values.timeout),
};
console.log(
  `fuzz: seed ${options.seed}, ${options.programs ?? '∞'} programs${options.seconds ? ` or ${options.seconds} s` : ''}, ${options.eventsPerProgram} events each, ${options.jobs} workers, every ${options.cliEvery}th program through svc vrl`,
);
const started = Date.now();
let lastReport = started;
const summary = await fuzz({
  ...options,
  progress: (s) => {
    if (Date.now() - lastReport < 15_000) return;
    lastReport = Date.now();
    const bad = BAD_OUTCOMES.reduce((n, k) => n + s.counts[k], 0);
    console.log(`  ${s.programs} programs, ${s.runs} runs, ${bad} bad, ${Math.round((Date.now() - started) / 1000)} s`);
  },
});

console.log(
  `\n${summary.programs} programs × events = ${summary.runs} runs in ${Math.round((Date.now() - started) / 1000)} s (seed ${options.seed})`,
);
console.log('outcome         count   (library API: one per event; svc vrl: one per program)');
for (const [kind, count] of Object.entries(summary.counts)) {
  console.log(
    `${kind.padEnd(15)} ${String(count).padStart(7)}${BAD_OUTCOMES.includes(kind) && count > 0 ? '   ← bad' : ''}`,
  );
}
if (summary.failures.size > 0) {
  const dir = path.resolve(values.out);
  mkdirSync(dir, { recursive: true });
  console.log(
    `\n${summary.failures.size} distinct failures (a few cases of each in ${path.relative(process.cwd(), dir) || '.'}/):`,
  );
  let n = 0;
  for (const [key, cases] of [...summary.failures].sort((a, b) => a[0].localeCompare(b[0]))) {
    console.log(`  ${key}`);
    cases.forEach((c, i) =>
      writeFileSync(
        path.join(dir, `${String(n).padStart(3, '0')}-${c.kind}-${i}.json`),
        JSON.stringify(c, null, 2) + '\n',
      ),
    );
    n++;
  }
  const programs = [...summary.badPrograms.values()].map((p) => JSON.stringify(p)).join('\n');
  writeFileSync(path.join(dir, 'bad-programs.jsonl'), programs + '\n');
  console.log(
    `  every program with a bad outcome: ${path.relative(process.cwd(), path.join(dir, 'bad-programs.jsonl'))}`,
  );
}
process.exitCode = summary.failures.size > 0 ? 1 : 0;
