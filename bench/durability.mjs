// The cost of never losing an event: file → remap(S1) → file with a disk buffer and end-to-end
// acknowledgements, against the same pipeline with the memory buffer. Each run starts svc on a fresh data_dir,
// and its time is from spawn until the sink's file holds every event. Run by bench/pipeline.mjs; alone:
//   node bench/durability.mjs EVENTS_FILE S1_PROGRAM_FILE [--rounds R]
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Newlines appended to `file` since `counter` last looked, added to its count: a file that only grows is
 * read once, so polling does not compete with the svc it measures by rereading its output. */
export function countNew(file, counter) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch {
    return counter.lines;
  }
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, counter.offset);
      if (read === 0) return counter.lines;
      counter.offset += read;
      for (let i = chunk.indexOf(10); i !== -1 && i < read; i = chunk.indexOf(10, i + 1)) counter.lines++;
    }
  } finally {
    closeSync(fd);
  }
}

/** Seconds from spawning svc on `config` until `output` has `events` lines. */
async function timedRun(cli, config, output, events) {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [cli, '-q', '--config', config], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const counter = { lines: 0, offset: 0 };
  try {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (countNew(output, counter) >= events) return Number(process.hrtime.bigint() - start) / 1e9;
      if (child.exitCode !== null) throw new Error(`svc exited with ${child.exitCode} before writing every event`);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Rows comparing the durable pipeline with the memory-buffered one, `rounds` alternated runs each. */
export async function durabilityBenchmark({ cli, eventsFile, s1File, rounds = 3 }) {
  const events = countNew(eventsFile, { lines: 0, offset: 0 });
  const program = `. = parse_json!(.message)\n${readFileSync(s1File, 'utf8')}`;
  const config = (dir, durable) => {
    const file = path.join(dir, durable ? 'durable.json' : 'memory.json');
    const sink = {
      type: 'file',
      inputs: ['s1'],
      path: path.join(dir, 'out.ndjson'),
      encoding: { codec: 'json' },
      ...(durable ? { buffer: { type: 'disk', max_size: 1 << 30 }, acknowledgements: { enabled: true } } : {}),
    };
    writeFileSync(
      file,
      JSON.stringify({
        data_dir: path.join(dir, 'data'),
        sources: { in: { type: 'file', include: [eventsFile], read_from: 'beginning', max_line_bytes: 1 << 20 } },
        transforms: { s1: { type: 'remap', inputs: ['in'], source: program } },
        sinks: { out: sink },
      }),
    );
    return file;
  };
  const times = { memory: [], durable: [] };
  for (let round = -1; round < rounds; round++) {
    for (const kind of round % 2 === 0 ? ['memory', 'durable'] : ['durable', 'memory']) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-durability-'));
      try {
        mkdirSync(path.join(dir, 'data'));
        const seconds = await timedRun(cli, config(dir, kind === 'durable'), path.join(dir, 'out.ndjson'), events);
        if (round >= 0) times[kind].push(seconds);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const [memory, durable] = [median(times.memory), median(times.durable)];
  const rate = (s) => `${(events / s / 1e3).toFixed(0)} k`;
  return [
    `| file → remap(S1) → file, disk buffer and acknowledgements on, against the memory buffer, ${events / 1000}k events, ev/s until the last is written, median of ${rounds} alternated runs | ${rate(durable)} | memory buffer ${rate(memory)} | ${(durable / memory).toFixed(2)}× the time (${((memory / durable) * 100).toFixed(0)}% of the throughput) | ≥ 70% |`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [eventsFile, s1File] = process.argv.slice(2);
  const rounds = process.argv.includes('--rounds') ? Number(process.argv[process.argv.indexOf('--rounds') + 1]) : 3;
  const cli = fileURLToPath(new URL('../dist/bin/svc.js', import.meta.url));
  console.log((await durabilityBenchmark({ cli, eventsFile, s1File, rounds })).join('\n'));
}
