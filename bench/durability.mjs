// The cost of never losing an event: file → remap(S1) → file with a disk buffer and end-to-end
// acknowledgements, against the same pipeline with the memory buffer. Each run starts svc on a fresh data_dir,
// and its time is from spawn until the sink's file holds every event. Run by bench/pipeline.mjs; alone:
//   node bench/durability.mjs EVENTS_FILE S1_PROGRAM_FILE [--rounds R]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Newline count of a file (0 when absent). */
function lineCount(file) {
  try {
    const bytes = readFileSync(file);
    let lines = 0;
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
    return lines;
  } catch {
    return 0;
  }
}

/** Seconds from spawning svc on `config` until `output` has `events` lines. */
async function timedRun(cli, config, output, events) {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [cli, '-q', '--config', config], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    // The output file only grows: its size says when to count its lines again.
    let size = -1;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const now = statSafe(output);
      if (now !== size) {
        size = now;
        if (lineCount(output) >= events) return Number(process.hrtime.bigint() - start) / 1e9;
      }
      if (child.exitCode !== null) throw new Error(`svc exited with ${child.exitCode} before writing every event`);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const statSafe = (file) => {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
};

/** Rows comparing the durable pipeline with the memory-buffered one, `rounds` alternated runs each. */
export async function durabilityBenchmark({ cli, eventsFile, s1File, rounds = 3 }) {
  const events = lineCount(eventsFile);
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
