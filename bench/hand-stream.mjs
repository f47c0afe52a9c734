// What a Node user would write instead of `svc vrl -o -i FILE` for program S1–S5: stream lines, JSON.parse,
// mutate, JSON.stringify (the shape of ../shared/bench/S1-hand.mjs).
//   node bench/hand-stream.mjs S3 events.ndjson > out.ndjson
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { PROGRAMS } from './programs.mjs';

const [name, file] = process.argv.slice(2);
const { hand } = PROGRAMS[name];
const rl = createInterface({ input: createReadStream(file) });
let out = [];
rl.on('line', (line) => {
  out.push(JSON.stringify(hand(JSON.parse(line))));
  if (out.length >= 1000) {
    process.stdout.write(out.join('\n') + '\n');
    out = [];
  }
});
rl.on('close', () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
});
