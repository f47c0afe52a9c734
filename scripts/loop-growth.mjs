// `npm run build && node scripts/loop-growth.mjs` (SVC_ROOT=DIR: another build's checkout, to compare)
// How programs that build values in loops grow with the input: each program runs on one event whose array
// has 1k, 4k and 16k items (ms per event, mean of 3 after a warm-up). Linear work grows 4× from size to size;
// a program that copies its accumulator on every turn grows 16×.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.SVC_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const { compile } = await import(path.join(root, 'dist/runtime/index.js'));

const SIZES = [1000, 4000, 16000];
const PROGRAMS = [
  ['x = push(x, v)', 'a = []\nfor_each(array!(.items)) -> |_i, v| { a = push(a, v) }\n.n = length(a)'],
  ['x = append(x, [v])', 'a = []\nfor_each(array!(.items)) -> |_i, v| { a = append(a, [v]) }\n.n = length(a)'],
  [
    'x = set!(x, [k], v)',
    'o = {}\nfor_each(array!(.items)) -> |i, v| { o = set!(o, [to_string(i)], v) }\n.n = length(o)',
  ],
  [
    'x = merge(x, {k: v})',
    'o = {}\nfor_each(array!(.items)) -> |i, v| { o = merge(o, set!({}, [to_string(i)], v)) }\n.n = length(o)',
  ],
  ['.f = push!(.f, v)', '.f = []\nfor_each(array!(.items)) -> |_i, v| { .f = push!(.f, v) }\n.n = length!(.f)'],
  ['s = s + text', 's = ""\nfor_each(array!(.items)) -> |_i, v| { s = s + to_string!(v) }\n.n = strlen(s)'],
  ['map_values', '.m = map_values(array!(.items)) -> |v| { to_string!(v) }'],
  ['join(split)', '.j = join!(split(join!(map_values(array!(.items)) -> |v| { to_string!(v) }, ","), ","), ";")'],
];

for (const [name, source] of PROGRAMS) {
  const program = await compile(source);
  const times = SIZES.map((size) => {
    const input = Buffer.from(`${JSON.stringify({ items: Array.from({ length: size }, (_, i) => i % 997) })}\n`);
    program.runNdjson(input);
    const start = process.hrtime.bigint();
    for (let round = 0; round < 3; round++) program.runNdjson(input);
    return Number(process.hrtime.bigint() - start) / 3 / 1e6;
  });
  console.log(
    `${name.padEnd(22)} ${times.map((ms) => `${ms.toFixed(2)} ms`).join(', ')}  (${SIZES.join(' / ')} items)`,
  );
}
