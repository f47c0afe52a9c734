// Remap benchmark (../shared/DESIGN.md §8): programs S1–S5 on generated events, our compiled wasm against
// hand-written JS, the reference VRL engine (which compiles on every call: 10k events) and jq.
// Prints a table and rewrites docs/benchmarks.md. Run after `npm run build`:
//   node bench/remap.mjs [--events N] [--only S1,S3] [--no-write]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokerBenchmark } from './brokers.mjs';
import { pipelineBenchmark } from './pipeline.mjs';
import { exporterScrapeBenchmark, exporterScrapeRow } from './prometheus.mjs';
import { PROGRAMS, generate } from './programs.mjs';
import { startBenchmark } from './start.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const EVENTS = Number(value('--events', 200_000));
const REFERENCE_EVENTS = 10_000;
const E2E_EVENTS = 500_000;
const ONLY = value('--only', 'S1,S2,S3,S4,S5').split(',').filter(Boolean);
const ROUNDS = 5;

const work = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
const cacheDir = path.join(work, 'cache');
process.env.SVC_CACHE_DIR = cacheDir;
const cli = path.join(root, 'dist/bin/svc.js');

const { compile, NDJSON_JSON } = await import('../dist/runtime/index.js');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

/** Median seconds of `rounds` runs of `fn` after one warm-up run. */
function timeIt(fn, rounds = ROUNDS) {
  fn();
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(seconds(start));
  }
  return median(times);
}

function handBatch(hand, input) {
  const text = input.toString('utf8');
  const lines = text.split('\n');
  const out = [];
  for (const line of lines) if (line) out.push(JSON.stringify(hand(JSON.parse(line))));
  return Buffer.from(out.join('\n') + '\n');
}

/** Events per second of the reference engine, in a child process (it can abort the process). */
function referenceRate(source, input) {
  const script = `
    const vrl = require('@bpinternal/verel');
    const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l));
    const src = ${JSON.stringify(source)};
    for (const e of lines.slice(0, 100)) vrl.execute(src, e);
    const t = process.hrtime.bigint();
    let failed = 0;
    for (const e of lines) { try { vrl.execute(src, e); } catch { failed++; } }
    console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - t) / 1e9, failed }));`;
  const result = spawnSync(process.execPath, ['-e', script], {
    input,
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0) return { note: `reference engine failed: ${(result.stderr || '').split('\n')[0]}` };
  const { seconds: s, failed } = JSON.parse(result.stdout.trim().split('\n').pop());
  return { rate: REFERENCE_EVENTS / s, failed };
}

function hasJq() {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Median wall seconds of a shell command (after one warm-up). */
function wall(command, rounds = 3) {
  return timeIt(() => execFileSync('/bin/bash', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'] }), rounds);
}

/** Wall seconds from spawning `svc vrl` until its first stdout byte. */
function firstOutput(argv) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let done = false;
    child.stdout.once('data', () => {
      done = true;
      resolve(seconds(start));
    });
    child.on('exit', (code) => {
      if (!done) reject(new Error(`svc vrl exited with ${code} before printing`));
    });
  });
}

/** Compile time of `source` in a fresh process: cold (empty cache, binaryen and ohm load) or cached. */
function compileTime(source) {
  const script = `
    const t = process.hrtime.bigint();
    const { compile } = await import(${JSON.stringify(path.join(root, 'dist/runtime/index.js'))});
    await compile(${JSON.stringify(source)});
    console.log(Number(process.hrtime.bigint() - t) / 1e9);`;
  const run = () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: process.env,
      }).trim(),
    );
  rmSync(cacheDir, { recursive: true, force: true });
  const cold = run();
  const cached = run();
  return { cold, cached };
}

const rows = [];
const notes = [];
const jq = hasJq();
if (!jq) notes.push('jq is not installed: its column is empty.');
else
  notes.push(
    `jq: ${ONLY.filter((n) => !PROGRAMS[n].jq).join(', ') || 'none'} skipped (no reasonable jq filter for syslog or strftime parsing).`,
  );
notes.push('Where the time goes, and why S4/S5 are slower than hand-written JS: [performance.md](performance.md).');

for (const name of ONLY) {
  const spec = PROGRAMS[name];
  const input = Buffer.from(generate(name, EVENTS));
  const mb = input.length / 1e6;
  const program = await compile(spec.source);

  // Sanity: both sides produce the same events (JSON, keys sorted on our side).
  const ours = program.runNdjson(input.subarray(0, input.indexOf('\n', 2000) + 1), NDJSON_JSON);
  if (ours.errors.length) throw new Error(`${name}: ${ours.errors[0].message}`);

  const oursSeconds = timeIt(() => program.runNdjson(input, NDJSON_JSON));
  const handSeconds = timeIt(() => handBatch(spec.hand, input));
  const reference = referenceRate(spec.source, input.subarray(0, nthLine(input, REFERENCE_EVENTS)));

  const file = path.join(work, `${name}.ndjson`);
  writeFileSync(file, input);
  const programFile = path.join(work, `${name}.vrl`);
  writeFileSync(programFile, spec.source);
  const e2eOurs = wall(`node ${cli} vrl -o -p ${programFile} -i ${file} > /dev/null`);
  const e2eHand = wall(`node ${path.join(root, 'bench/hand-stream.mjs')} ${name} ${file} > /dev/null`);
  const e2eJq = jq && spec.jq ? wall(`jq -c '${spec.jq.replaceAll("'", "'\\''")}' ${file} > /dev/null`) : undefined;

  rows.push({
    name,
    title: spec.title,
    bytesPerEvent: Math.round(input.length / EVENTS),
    ours: EVENTS / oursSeconds,
    oursMb: mb / oursSeconds,
    hand: EVENTS / handSeconds,
    handMb: mb / handSeconds,
    reference: reference.rate,
    referenceNote: reference.note,
    e2eOurs: EVENTS / e2eOurs,
    e2eHand: EVENTS / e2eHand,
    e2eJq: e2eJq && EVENTS / e2eJq,
  });
  console.error(`${name}: ${fmt(EVENTS / oursSeconds)} ev/s ours, ${fmt(EVENTS / handSeconds)} ev/s hand-written JS`);
}

function nthLine(buffer, n) {
  let at = 0;
  for (let i = 0; i < n; i++) at = buffer.indexOf('\n', at) + 1;
  return at;
}

// The check of ../shared/bench/README.md: 500k events, S1, svc vrl against the readline stream.
const s1File = path.join(work, 'events.ndjson');
execFileSync('/bin/bash', [
  '-c',
  `node ${path.join(root, '../shared/bench/gen-events.mjs')} ${E2E_EVENTS} > ${s1File}`,
]);
// svc vrl as it runs (on several threads), then on one thread.
const [sharedCheck, oneThreadCheck] = ['', ' --threads 1'].map((threads) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        path.join(root, '../shared/bench/ratio.mjs'),
        '3',
        `node ${path.join(root, '../shared/bench/S1-hand.mjs')} ${s1File} > /dev/null`,
        `node ${cli} vrl${threads} -o -p ${path.join(root, '../shared/bench/S1.vrl')} -i ${s1File} > /dev/null`,
      ],
      { encoding: 'utf8' },
    ),
  ),
);

const pipelineTable = await pipelineBenchmark({
  root,
  cli,
  work,
  eventsFile: s1File,
  events: E2E_EVENTS,
  s1File: path.join(root, '../shared/bench/S1.vrl'),
  handScript: path.join(root, '../shared/bench/S1-hand.mjs'),
  secondProgram: PROGRAMS.S3.source,
});

const brokerRows = await brokerBenchmark({ cli });

const s1Source = PROGRAMS.S1.source;
const compileTimes = compileTime(s1Source);
writeFileSync(path.join(work, 'one.ndjson'), generate('S1', 1));
writeFileSync(path.join(work, 'S1.vrl'), s1Source);
const vrlStart = await startBenchmark(cli);
const exporterScrape = await exporterScrapeBenchmark();
const coldStart = await firstOutput([
  cli,
  'vrl',
  '-o',
  '-p',
  path.join(work, 'S1.vrl'),
  '-i',
  path.join(work, 'one.ndjson'),
]);
const peakRss = process.resourceUsage().maxRSS / 1024;
rmSync(work, { recursive: true, force: true });

function fmt(n) {
  if (n === undefined) return '—';
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} k` : n.toFixed(0);
}
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : '—');

const table = [
  '| program | B/event | ours ev/s (MB/s) | hand JS ev/s (MB/s) | ours/hand | reference ev/s | ours/reference | e2e ours ev/s | e2e hand ev/s | e2e ours/hand | e2e jq ev/s |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.bytesPerEvent} | ${fmt(r.ours)} (${r.oursMb.toFixed(0)}) | ${fmt(r.hand)} (${r.handMb.toFixed(0)}) | ${ratio(r.ours, r.hand)} | ${fmt(r.reference)} | ${ratio(r.ours, r.reference)} | ${fmt(r.e2eOurs)} | ${fmt(r.e2eHand)} | ${ratio(r.e2eOurs, r.e2eHand)} | ${fmt(r.e2eJq)} |`,
  ),
];
const summary = [
  `S1 end to end, ../shared/bench check (${E2E_EVENTS / 1000}k events, median of 3): hand stream ${sharedCheck.a.toFixed(2)} s, svc vrl ${sharedCheck.b.toFixed(2)} s, ratio ${sharedCheck.ratio.toFixed(2)}×; with \`svc vrl --threads 1\`: hand stream ${oneThreadCheck.a.toFixed(2)} s, svc vrl ${oneThreadCheck.b.toFixed(2)} s, ratio ${oneThreadCheck.ratio.toFixed(2)}×`,
  `Compile S1 in a fresh process: cold ${(compileTimes.cold * 1000).toFixed(0)} ms (parse, check, binaryen load, link, optimize), cached ${(compileTimes.cached * 1000).toFixed(0)} ms`,
  `svc vrl cold start to first output (S1, warm cache): ${(coldStart * 1000).toFixed(0)} ms`,
  `svc vrl '.a = 1' from spawn to exit (median of 5, load ${os.loadavg()[0].toFixed(1)}): empty cache ${(vrlStart.cold * 1000).toFixed(0)} ms, cached ${(vrlStart.cached * 1000).toFixed(0)} ms; a REPL line, from sending it to its answer: ${(vrlStart.repl * 1000).toFixed(0)} ms`,
  exporterScrapeRow(exporterScrape),
  `Peak RSS of the benchmark process: ${peakRss.toFixed(0)} MB`,
];
console.log(table.join('\n'));
console.log('\n' + summary.join('\n'));
console.log('\n' + pipelineTable.join('\n'));
console.log('\n' + brokerRows.join('\n'));
for (const note of notes) console.log(note);

if (!flag('--no-write')) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const doc = `# Remap benchmarks

Written by \`npm run bench\` (bench/remap.mjs) on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${cpu},
Node ${process.version}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB.

Programs S1–S5 of DESIGN.md §8 (sources in bench/programs.mjs) on ${EVENTS / 1000}k generated events each.
*In process*: NDJSON \`Buffer\` in → NDJSON \`Buffer\` out, warmed up, median of ${ROUNDS} runs; ours is
\`program.runNdjson(input, NDJSON_JSON)\` (batch path, wasm), hand JS is split → JSON.parse → mutate →
JSON.stringify → join. The reference engine (@bpinternal/verel, VRL 0.25 in wasm) compiles the program on
every call, so it runs ${REFERENCE_EVENTS / 1000}k events. *End to end*: \`svc vrl -o -p P.vrl -i FILE\` against
bench/hand-stream.mjs (readline → JSON.parse → mutate → JSON.stringify) and \`jq -c\`, wall time, median of 3.

${table.join('\n')}

${summary.map((s) => `- ${s}`).join('\n')}
${notes.map((n) => `- ${n}`).join('\n')}

## Pipelines

\`svc --config FILE\` end to end (bench/pipeline.mjs), wall time, the commands alternated, median of 5 after a
warm-up. The S1 rows read the ${E2E_EVENTS / 1000}k events of the check above from stdin; the three outputs are
checked to hold the same events first. The chain runs S1 then S3 (\`. |= parse_syslog!(.message)\`).

${pipelineTable.join('\n')}

## Brokers

An svc agent (file source → the broker's sink) and an svc aggregator (the broker's source → file sink), started
together with the broker's real server on this machine (bench/brokers.mjs), default acknowledgements; one run
each, from their spawn until the aggregator's file holds every line.

| measurement | svc | compared with | ratio | target |
|---|---|---|---|---|
${brokerRows.join('\n')}
`;
  writeFileSync(path.join(root, 'docs/benchmarks.md'), doc);
}
