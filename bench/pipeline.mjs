// Pipeline benchmark (`svc --config FILE`), run by bench/remap.mjs so every row of docs/benchmarks.md comes from
// one run on one machine: stdin → remap(S1) → console against the hand-written Node stream and `svc vrl -o` on
// the same events (outputs checked equal first), `--threads 2` against `--threads 1` on a chain of two remaps,
// the peak RSS of the default pipeline, the time from spawn to its first event, and the cost of a disk buffer
// with acknowledgements (bench/durability.mjs); file → remap → file and stdin → remap → file, with and without
// `parse_json`, against the hand-written stream and syslog-ng (where installed), until the last line is written.

import { execFileSync, spawn } from 'node:child_process';
import { closeSync, createReadStream, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import { durabilityBenchmark } from './durability.mjs';
import { metricsBenchmark } from './metrics.mjs';

/** Alternated runs per command: this VM's speed swings by half within a minute, and five medians hold. */
const ROUNDS = 5;
const START_ROUNDS = 5;
/** Events of the default pipeline whose RSS is sampled (its `count`, with no interval). */
const RSS_EVENTS = 300_000;
const RSS_SAMPLE_MS = 20;
/** Events of the file and stdin → file rows. */
const FILE_EVENTS = 300_000;
/** How often the output of a file row is looked at. */
const OUTPUT_POLL_MS = 5;

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall seconds of one shell command, its stdout discarded. */
function wallOnce(command) {
  const start = process.hrtime.bigint();
  execFileSync('/bin/bash', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'] });
  return seconds(start);
}

/** Runs the commands in turn `rounds` times after one warm-up each (alternating, so a busy moment of the
 * machine hits all of them alike); the median seconds of each. */
export function alternate(commands, rounds = ROUNDS) {
  for (const command of commands) wallOnce(command);
  const times = commands.map(() => []);
  for (let round = 0; round < rounds; round++) commands.forEach((command, i) => times[i].push(wallOnce(command)));
  return times.map(median);
}

/** The events of an NDJSON file, keys sorted, without `drop` keys: what two outputs must agree on. */
function canonicalLines(file, drop = []) {
  const sortKeys = (value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .filter((key) => !drop.includes(key))
            .map((key) => [key, sortKeys(value[key])]),
        )
      : value;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.stringify(sortKeys(JSON.parse(line))));
}

function assertSameEvents(what, expected, actual) {
  if (expected.length !== actual.length)
    throw new Error(`${what}: ${actual.length} events, expected ${expected.length}`);
  const at = expected.findIndex((line, i) => line !== actual[i]);
  if (at >= 0) throw new Error(`${what}: event ${at} differs:\n  expected ${expected[at]}\n  got      ${actual[at]}`);
}

const yaml = (value) => JSON.stringify(value, null, 2);

/** Max VmRSS (MB) of a process while it runs, sampled from /proc/<pid>/status. */
function maxRss(argv, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'inherit'], env });
    let max = 0;
    const sample = () => {
      try {
        const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        max = Math.max(max, kb / 1024);
      } catch {
        // The process is gone between two samples.
      }
    };
    const timer = setInterval(sample, RSS_SAMPLE_MS);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolve(max);
      else reject(new Error(`the default pipeline exited with ${code}`));
    });
  });
}

/** Wall seconds from spawning a process until its first stdout line; the process is then stopped. */
function firstLine(argv, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'ignore'], env });
    let done = false;
    child.stdout.on('data', (chunk) => {
      if (done || !chunk.includes(0x0a)) return;
      done = true;
      resolve(seconds(start));
      child.kill('SIGTERM');
    });
    child.on('exit', (code) => {
      if (!done) reject(new Error(`the pipeline exited with ${code} before its first event`));
    });
  });
}

/** Wall seconds from spawning a shell command until `outFile` holds `lines` lines (`outFile` removed first);
 * the command is then stopped if it still runs (a file source tails for ever). */
function untilWritten(command, outFile, lines, before = () => undefined) {
  rmSync(outFile, { force: true });
  before();
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('/bin/bash', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
    let exited = false;
    let done = false;
    let fd;
    let seen = 0;
    const chunk = Buffer.allocUnsafe(1 << 20);
    const poll = () => {
      try {
        fd ??= openSync(outFile, 'r');
      } catch {
        return false;
      }
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; )
        for (let at = chunk.indexOf(10); at !== -1 && at < n; at = chunk.indexOf(10, at + 1)) seen++;
      return seen >= lines;
    };
    const finish = (error, elapsed) => {
      done = true;
      clearInterval(timer);
      if (fd !== undefined) closeSync(fd);
      if (!exited) process.kill(-child.pid, 'SIGTERM');
      if (error) reject(error);
      else resolve(elapsed);
    };
    const timer = setInterval(() => {
      if (poll()) finish(undefined, seconds(start));
    }, OUTPUT_POLL_MS);
    child.on('exit', (code) => {
      exited = true;
      if (done) return;
      if (poll()) finish(undefined, seconds(start));
      else finish(new Error(`${command} exited with ${code} after ${seen} of ${lines} lines`));
    });
  });
}

/** `alternate` for `untilWritten` runs: `runs` are [command, outFile, before] of the same `lines`. */
async function alternateWritten(runs, lines, rounds = ROUNDS) {
  for (const run of runs) await untilWritten(run[0], run[1], lines, run[2]);
  const times = runs.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (const [i, run] of runs.entries()) times[i].push(await untilWritten(run[0], run[1], lines, run[2]));
  return times.map(median);
}

/** syslog-ng's S1 (bench/programs.mjs): a file source, `json-parser`, a `rewrite` as the remap program, and
 * `format-json` into a file; with flow control, as without it a full destination queue drops events. */
function syslogNgConfig(input, output) {
  return `@version: 3.38
options { stats-freq(0); };
source s_in { file("${input}" flags(no-parse) follow-freq(1) log-fetch-limit(1000) log-iw-size(100000)); };
parser p_json { json-parser(prefix(".json.")); };
rewrite r_s1 {
  set("prod", value(".json.env"));
  unset(value(".json.debug"));
  set("info", value(".json.level"));
  set("error", value(".json.level") condition("\${.json.status}" >= 500));
  set("$(uppercase \${.json.host})", value(".json.host"));
};
destination d_out { file("${output}" template("$(format-json --scope none --key .json.* --rekey .json.* --shift 6)\\n")); };
log { source(s_in); parser(p_json); rewrite(r_s1); destination(d_out); flags(flow-control); };
`;
}

const hasSyslogNg = () => {
  try {
    execFileSync('syslog-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * file → remap → file and stdin → remap → file on the first `FILE_EVENTS` S1 events of `eventsFile`, each with
 * `parse_json` of `.message` before the S1 program `s1File` in the remap program (the source makes each line a `message`) and without it
 * (stdin: the json codec decodes; file, which has no codec: S1 runs on the line's event), against
 * bench/hand-stream.mjs doing the same; time from spawn until the last line is in the output file; syslog-ng's
 * S1 from file to file where `syslog-ng` is installed. Returns markdown table rows.
 */
export async function fileBenchmark({ root, cli, work, eventsFile, s1File }) {
  const input = path.join(work, 'file-events.ndjson');
  execFileSync('/bin/bash', ['-c', `head -n ${FILE_EVENTS} ${eventsFile} > ${input}`]);
  const lines = FILE_EVENTS;
  const handScript = path.join(root, 'bench/hand-stream.mjs');
  const s1 = readFileSync(s1File, 'utf8');
  const parsed = `. = object!(parse_json!(.message))\n${s1}`;
  const dataDir = path.join(work, 'file-data');
  const freshDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  const svcRun = (name, source, program) => {
    const config = path.join(work, `pipeline-${name}.json`);
    const out = path.join(work, `out-${name}.ndjson`);
    writeFileSync(
      config,
      yaml({
        data_dir: dataDir,
        sources: { in: source },
        transforms: { s1: { type: 'remap', inputs: ['in'], source: program } },
        sinks: { out: { type: 'file', inputs: ['s1'], path: out, encoding: { codec: 'json' } } },
      }),
    );
    const stdin = source.type === 'stdin' ? ` < ${input}` : '';
    return [`node ${cli} -q --config ${config}${stdin}`, out, freshDataDir];
  };
  const handRun = (name, mode) => {
    const out = path.join(work, `out-hand-${name}.ndjson`);
    return [`node ${handScript} S1 /dev/stdin${mode} < ${input} > ${out}`, out];
  };
  const fileSource = { type: 'file', include: [input], ignore_checkpoints: true };
  const rows = [
    ['file → remap(`parse_json`, S1) → file', svcRun('file-json', fileSource, parsed), handRun('json', '')],
    ['file → remap(S1 on the line) → file', svcRun('file-line', fileSource, s1), handRun('line', ' --message')],
    ['stdin → remap(`parse_json`, S1) → file', svcRun('stdin-json', { type: 'stdin' }, parsed), handRun('json', '')],
    [
      'stdin (json codec) → remap(S1) → file',
      svcRun('stdin-codec', { type: 'stdin', decoding: { codec: 'json' } }, s1),
      handRun('json', ''),
    ],
  ];
  // Same events out of svc and the hand-written stream before any timing counts (svc stamps its source's
  // fields; without `parse_json` the line's event has this host's name, as the hand-written one does).
  for (const [what, svc, hand] of rows) {
    await untilWritten(svc[0], svc[1], lines, svc[2]);
    await untilWritten(hand[0], hand[1], lines);
    assertSameEvents(
      `${what} against the hand-written stream`,
      canonicalLines(hand[1]),
      canonicalLines(svc[1], ['file', 'source_type', 'timestamp']),
    );
  }
  const table = [];
  let fileJsonSeconds;
  for (const [what, svc, hand] of rows) {
    const [svcSeconds, handSeconds] = await alternateWritten([svc, hand], lines);
    fileJsonSeconds ??= svcSeconds;
    console.error(`${what}: svc ${svcSeconds.toFixed(2)} s, hand-written ${handSeconds.toFixed(2)} s`);
    table.push(
      `| ${what}, ${lines / 1000}k events, spawn → last line written, ev/s, median of ${ROUNDS} alternated runs | ${(lines / svcSeconds / 1e3).toFixed(0)} k | hand-written stream ${(lines / handSeconds / 1e3).toFixed(0)} k | ${(handSeconds / svcSeconds).toFixed(2)}× | ${what.startsWith('file') ? '≥ 3×' : ''} |`,
    );
  }
  if (!hasSyslogNg()) {
    table.push(
      '| syslog-ng S1, file → file | — | syslog-ng is not installed (Debian `syslog-ng-core`): row skipped | | ≥ 4× |',
    );
    return table;
  }
  const sngDir = path.join(work, 'syslog-ng');
  const sngOut = path.join(sngDir, 'out.ndjson');
  const sngConfig = path.join(work, 'syslog-ng.conf');
  writeFileSync(sngConfig, syslogNgConfig(input, sngOut));
  const syslogNg = [
    `exec syslog-ng -F --no-caps -f ${sngConfig} -R ${sngDir}/persist -p ${sngDir}/pid -c ${sngDir}/ctl`,
    sngOut,
    () => {
      rmSync(sngDir, { recursive: true, force: true });
      execFileSync('mkdir', ['-p', sngDir]);
    },
  ];
  const [svcSeconds, sngSeconds] = await alternateWritten([rows[0][1], syslogNg], lines);
  console.error(
    `file → file S1: svc ${svcSeconds.toFixed(2)} s, syslog-ng ${sngSeconds.toFixed(2)} s (svc alone before: ${fileJsonSeconds.toFixed(2)} s)`,
  );
  table.push(
    `| file → remap(\`parse_json\`, S1) → file against syslog-ng (file, \`json-parser\`, \`rewrite\`, \`format-json\`), ev/s, median of ${ROUNDS} alternated runs | ${(lines / svcSeconds / 1e3).toFixed(0)} k | syslog-ng ${(lines / sngSeconds / 1e3).toFixed(0)} k | ${(sngSeconds / svcSeconds).toFixed(2)}× | ≥ 4× |`,
  );
  return table;
}

/** A free loopback port. */
async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** How long svc takes over the 500k events once started: they are fed through its stdin (a pipe) only when
 * it is ready, so start-up is not counted. `api`: with the API on `port` and a `svc tap` attached to `tapped`
 * at `--limit 100` (ready once the tap says its pattern matched); without, ready after `settleMs`. */
async function fedRun({ cli, config, eventsFile, api, settleMs = 1500 }) {
  const devNull = openSync('/dev/null', 'w');
  const child = spawn(process.execPath, [cli, '--config', config], { stdio: ['pipe', devNull, 'ignore'] });
  const exited = new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`svc exited with ${code}`)))),
  );
  let tap;
  if (api) {
    const url = `http://127.0.0.1:${api.port}/graphql`;
    for (let ready = false; !ready; ) {
      ready = await fetch(`http://127.0.0.1:${api.port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await sleep(20);
    }
    tap = spawn(process.execPath, [cli, 'tap', '--outputs-of', api.tapped, '--limit', '100', '--url', url], {
      stdio: ['ignore', devNull, 'pipe'],
    });
    let stderr = '';
    await new Promise((resolve, reject) => {
      tap.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (/matched/i.test(stderr)) resolve();
      });
      tap.on('exit', (code) => reject(new Error(`svc tap exited with ${code}: ${stderr}`)));
    });
  } else {
    await sleep(settleMs);
  }
  const start = process.hrtime.bigint();
  createReadStream(eventsFile).pipe(child.stdin);
  await exited;
  const elapsed = seconds(start);
  tap?.kill('SIGTERM');
  return elapsed;
}

/**
 * Measures the pipeline rows. `eventsFile`: NDJSON made by ../shared/bench/gen-events.mjs (`events` lines);
 * `s1File`: the S1 program and `handScript` its hand-written stream; `secondProgram`: the chain's second remap;
 * `work`: a scratch directory. Returns markdown lines for docs/benchmarks.md.
 */
export async function pipelineBenchmark({ root, cli, work, eventsFile, events, s1File, handScript, secondProgram }) {
  const env = process.env;
  const loadBefore = os.loadavg()[0];
  const s1Config = path.join(work, 'pipeline-s1.json');
  writeFileSync(
    s1Config,
    yaml({
      sources: { in: { type: 'stdin', decoding: { codec: 'json' } } },
      transforms: { s1: { type: 'remap', inputs: ['in'], file: s1File } },
      sinks: { out: { type: 'console', inputs: ['s1'], encoding: { codec: 'json' } } },
    }),
  );
  const pipeline = `node ${cli} -q --config ${s1Config} < ${eventsFile}`;
  const hand = `node ${handScript} ${eventsFile}`;
  // On one thread, as the pipeline's remap runs.
  const vrl = `node ${cli} vrl --threads 1 -o -p ${s1File} -i ${eventsFile}`;

  // Same events out of all three before any timing counts (the pipeline's source stamps source_type and
  // timestamp; the events already have a host).
  const outputs = ['pipeline', 'hand', 'vrl'].map((name) => path.join(work, `out-${name}.ndjson`));
  [pipeline, hand, vrl].forEach((command, i) =>
    execFileSync('/bin/bash', ['-c', `${command} > ${outputs[i]}`], { stdio: 'inherit' }),
  );
  const expected = canonicalLines(outputs[1]);
  assertSameEvents(
    'svc pipeline against the hand-written stream',
    expected,
    canonicalLines(outputs[0], ['source_type', 'timestamp']),
  );
  assertSameEvents('svc vrl -o against the hand-written stream', expected, canonicalLines(outputs[2]));

  const [pipelineSeconds, handSeconds, vrlSeconds] = alternate([
    `${pipeline} > /dev/null`,
    `${hand} > /dev/null`,
    `${vrl} > /dev/null`,
  ]);
  console.error(
    `pipeline S1: ${(events / pipelineSeconds / 1e3).toFixed(0)} k ev/s, hand ${(events / handSeconds / 1e3).toFixed(0)} k, vrl -o ${(events / vrlSeconds / 1e3).toFixed(0)} k`,
  );

  // S1 again with the API on and a tap on the remap's output, against S1 without the API, both fed when ready.
  const port = await freePort();
  const apiConfig = path.join(work, 'pipeline-s1-api.json');
  writeFileSync(
    apiConfig,
    yaml({ ...JSON.parse(readFileSync(s1Config, 'utf8')), api: { enabled: true, address: `127.0.0.1:${port}` } }),
  );
  const untappedTimes = [];
  const tappedTimes = [];
  await fedRun({ cli, config: s1Config, eventsFile });
  for (let round = 0; round < ROUNDS; round++) {
    untappedTimes.push(await fedRun({ cli, config: s1Config, eventsFile }));
    tappedTimes.push(await fedRun({ cli, config: apiConfig, eventsFile, api: { port, tapped: 's1' } }));
  }
  const [untapped, tapped] = [median(untappedTimes), median(tappedTimes)];
  console.error(
    `pipeline S1 fed when ready: without the API ${untapped.toFixed(2)} s, with the API and a tap ${tapped.toFixed(2)} s`,
  );

  // A chain of two remaps into a blackhole: with two threads each remap has a worker of its own.
  const chainConfig = path.join(work, 'pipeline-chain.json');
  writeFileSync(
    chainConfig,
    yaml({
      sources: { in: { type: 'stdin', decoding: { codec: 'json' } } },
      transforms: {
        a: { type: 'remap', inputs: ['in'], file: s1File },
        b: { type: 'remap', inputs: ['a'], source: secondProgram },
      },
      sinks: { out: { type: 'blackhole', inputs: ['b'] } },
    }),
  );
  const chain = (threads) => `node ${cli} -q --threads ${threads} --config ${chainConfig} < ${eventsFile} > /dev/null`;
  const [oneThread, twoThreads] = alternate([chain(1), chain(2)]);
  console.error(`chain: --threads 1 ${oneThread.toFixed(2)} s, --threads 2 ${twoThreads.toFixed(2)} s`);

  // The default pipeline with more events and no interval, for memory; as is, for the start-up time.
  const defaultConfig = JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
    import { parse } from 'yaml';
    import { readFileSync } from 'node:fs';
    console.log(JSON.stringify(parse(readFileSync(${JSON.stringify(path.join(root, 'examples/default.yaml'))}, 'utf8'))));`,
      ],
      { cwd: root, encoding: 'utf8' },
    ),
  );
  const demo = Object.values(defaultConfig.sources)[0];
  Object.assign(demo, { count: RSS_EVENTS, interval: 0 });
  const rssConfig = path.join(work, 'pipeline-default-large.json');
  writeFileSync(rssConfig, yaml(defaultConfig));
  const startArgv = [cli, '-q', '--config', path.join(root, 'examples/default.yaml')];
  // Compiles the program into the module cache first: neither row should count a compile (binaryen alone
  // is over 100 MB).
  await firstLine(startArgv, env);
  const rss = await maxRss([cli, '-q', '--config', rssConfig], env);
  console.error(`default pipeline, ${RSS_EVENTS / 1000}k events: max VmRSS ${rss.toFixed(0)} MB`);

  const starts = [];
  for (let i = 0; i < START_ROUNDS; i++) starts.push(await firstLine(startArgv, env));
  const start = median(starts);
  console.error(`default pipeline: first event after ${(start * 1000).toFixed(0)} ms`);

  const durability = await durabilityBenchmark({ cli, eventsFile, s1File });
  console.error(durability[0]);
  const fileRows = await fileBenchmark({ root, cli, work, eventsFile, s1File });
  const metricsRows = await metricsBenchmark({ cli, work });

  const rate = (s) => `${(events / s / 1e3).toFixed(0)} k`;
  const load = `1-minute load average ${loadBefore.toFixed(1)} when these rows started, ${os.loadavg()[0].toFixed(1)} when they ended (${os.cpus().length} cores): other work on the machine slows all columns alike, the ratios less.`;
  return [
    '| measurement | svc | compared with | ratio | target |',
    '|---|---|---|---|---|',
    `| stdin → remap(S1) → console (json), ${events / 1000}k events, ev/s, median of ${ROUNDS} alternated runs | ${rate(pipelineSeconds)} | hand-written stream ${rate(handSeconds)} | ${(handSeconds / pipelineSeconds).toFixed(2)}× | ≥ 3× (≥ 2× required) |`,
    `| same, against \`svc vrl -o --threads 1\` on the same file, ev/s | ${rate(pipelineSeconds)} | svc vrl -o --threads 1 ${rate(vrlSeconds)} | ${(vrlSeconds / pipelineSeconds).toFixed(2)}× | ≥ 0.9× |`,
    `| the same S1 pipeline with the API on and \`svc tap --outputs-of s1 --limit 100\` attached, against it without the API (events fed once ready), ev/s | ${rate(tapped)} | ${rate(untapped)} | ${(untapped / tapped).toFixed(2)}× | ≥ 0.9× |`,
    `| stdin → remap → remap → blackhole, \`--threads 2\` against \`--threads 1\`, s | ${twoThreads.toFixed(2)} s | ${oneThread.toFixed(2)} s | ${(oneThread / twoThreads).toFixed(2)}× | ≥ 1.6× |`,
    `| default pipeline (examples/default.yaml, count ${RSS_EVENTS / 1000}k, interval 0), max VmRSS | ${rss.toFixed(0)} MB | | | < 120 MB |`,
    `| default pipeline, spawn → first event on stdout, warm module cache, median of ${START_ROUNDS} | ${(start * 1000).toFixed(0)} ms | | | < 300 ms |`,
    ...durability,
    ...fileRows,
    ...metricsRows,
    '',
    load,
  ];
}
