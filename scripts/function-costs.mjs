// `npm run build && node scripts/function-costs.mjs [--top N] [--filter REGEX]` (SVC_ROOT=DIR: another build's checkout)
// What each upstream function example costs a run: every example of ../shared/conformance/functions.jsonl
// compiled, then run on 300 copies of its input event (`runNdjson`, median of 5 after a warm-up), slowest
// first, in ns per event (a program setting one field costs ~450). A survey for functions far off the rest
// (issue 22: the general path), not a benchmark: examples with side effects or randomness are left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { top: { type: 'string', default: '40' }, filter: { type: 'string' } } });
const root = process.env.SVC_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const conformance = path.join(root, '../shared/conformance');
// Examples read their test files relative to this directory, as the conformance runner runs them.
process.chdir(path.join(conformance, 'data'));
const { compile } = await import(path.join(root, 'dist/runtime/index.js'));
// The regex VM and the codec module, as in a pipeline's threads.
await import(path.join(root, 'dist/runtime/engine.js'));

const SKIP = /http_request|dns_lookup|reverse_dns|get_env_var|now|uuid|random|sleep|^log$|assert|abort|get_hostname/;
const EVENTS = 300;
const filter = values.filter && new RegExp(values.filter);
const rows = [];
for (const line of readFileSync(path.join(conformance, 'functions.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const example = JSON.parse(line);
  if (SKIP.test(example.function) || (filter && !filter.test(example.function))) continue;
  let program;
  try {
    program = await compile(example.source);
  } catch {
    continue;
  }
  const input = Buffer.from(`${JSON.stringify(example.input ?? {})}\n`.repeat(EVENTS));
  try {
    program.runNdjson(input);
  } catch {
    continue;
  }
  const times = [];
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    program.runNdjson(input);
    times.push(Number(process.hrtime.bigint() - start) / EVENTS);
  }
  rows.push([times.sort((a, b) => a - b)[2], example.function, example.source.replace(/\s+/g, ' ').slice(0, 90)]);
}
rows.sort((a, b) => b[0] - a[0]);
for (const [ns, name, source] of rows.slice(0, Number(values.top)))
  console.log(`${String(Math.round(ns)).padStart(9)}  ${name.padEnd(28)} ${source}`);
