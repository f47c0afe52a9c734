// What a Node user would write instead of `svc vrl -o -i FILE` for program S1–S5: stream lines, JSON.parse,
// mutate, JSON.stringify (the shape of ../shared/bench/S1-hand.mjs). With `--message`, each line is not parsed
// but is the `message` of an event with this host's name, as svc's file source makes it.
//   node bench/hand-stream.mjs S3 events.ndjson > out.ndjson
//   node bench/hand-stream.mjs S1 /dev/stdin --message < events.ndjson > out.ndjson
import { createReadStream } from 'node:fs';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { PROGRAMS } from './programs.mjs';

const [name, file, mode] = process.argv.slice(2);
const { hand } = PROGRAMS[name];
const host = hostname();
const event = mode === '--message' ? (line) => ({ message: line, host }) : (line) => JSON.parse(line);
const rl = createInterface({ input: createReadStream(file) });
let out = [];
rl.on('line', (line) => {
  out.push(JSON.stringify(hand(event(line))));
  if (out.length >= 1000) {
    process.stdout.write(out.join('\n') + '\n');
    out = [];
  }
});
rl.on('close', () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
});
