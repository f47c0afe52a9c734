// Programs S1–S5 in process on this build and another checkout's, side by side in one process: rounds
// alternate between the two, so both see the same machine. For "is this change slower?", where the
// machine's speed swings more between runs than the change moves it. Build both first.
//   node bench/compare.mjs OTHER_CHECKOUT [--events N] [--rounds R] [--only S1,S3]
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate, PROGRAMS } from './programs.mjs';

const args = process.argv.slice(2);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const other = args[0];
if (!other || other.startsWith('--')) {
  console.error('usage: node bench/compare.mjs OTHER_CHECKOUT [--events N] [--rounds R] [--only S1,S3]');
  process.exit(64);
}
const EVENTS = Number(value('--events', 100_000));
const ROUNDS = Number(value('--rounds', 9));
const ONLY = value('--only', 'S1,S2,S3,S4,S5').split(',').filter(Boolean);

process.env.SVC_CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), 'svc-compare-'));
const load = (checkout) => import(pathToFileURL(path.join(checkout, 'dist/runtime/index.js')).href);
const builds = [
  { name: 'this', runtime: await load(fileURLToPath(new URL('..', import.meta.url))) },
  { name: path.basename(path.resolve(other)), runtime: await load(other) },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`| program | ${builds.map((b) => `${b.name} (ev/s)`).join(' | ')} | this / other |`);
console.log(`|---|${builds.map(() => '---|').join('')}---|`);
for (const name of ONLY) {
  const input = Buffer.from(generate(name, EVENTS));
  const programs = await Promise.all(builds.map((b) => b.runtime.compile(PROGRAMS[name].source)));
  const times = builds.map(() => []);
  for (let round = -1; round < ROUNDS; round++) {
    // Each round runs both, the first one alternating; round -1 warms up.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const start = process.hrtime.bigint();
      programs[i].runNdjson(input, builds[i].runtime.NDJSON_JSON);
      if (round >= 0) times[i].push(Number(process.hrtime.bigint() - start) / 1e9);
    }
  }
  const rates = times.map((t) => EVENTS / median(t));
  console.log(
    `| ${name} | ${rates.map((r) => `${(r / 1000).toFixed(0)}k`).join(' | ')} | ${(rates[0] / rates[1]).toFixed(3)} |`,
  );
}
console.log(`\n${EVENTS} events, median of ${ROUNDS} alternated rounds, load ${os.loadavg()[0].toFixed(1)}`);
