// Start-up benchmark of `svc vrl` (issue 10's "Must show"), run by bench/remap.mjs; on its own it prints the
// figures of one build, so two builds can be measured side by side:
//   node bench/start.mjs [path/to/dist/bin/svc.js]
// Rows: `svc vrl '.a = 1'` from spawn to exit with an empty cache (a fresh directory per run: parse, check,
// binaryen, link) and with a warm one (the cached module only), and a REPL line: the time from writing a
// line to a spawned REPL until its answer arrives, after a first line that loaded the compiler.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = 5;
/** Lines timed in one REPL, each a new program (a REPL line compiles on its own). */
const REPL_LINES = 9;
const PROGRAM = '.a = 1';

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A fresh cache directory for `use`, removed after. */
async function withCacheDir(use) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-cache-'));
  try {
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wall seconds of `svc vrl PROGRAM` from spawn to exit with `cacheDir` as its cache. */
function vrlOnce(cli, cacheDir) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [cli, 'vrl', PROGRAM], {
    env: { ...process.env, SVC_CACHE_DIR: cacheDir },
    stdio: 'ignore',
  });
  return seconds(start);
}

/** Median seconds from writing a line to a spawned `svc vrl` REPL (stdin a pipe: answers only, no prompt)
 * until its answer, over REPL_LINES lines after a first one. */
function replLine(cli, cacheDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'vrl'], {
      env: { ...process.env, SVC_CACHE_DIR: cacheDir },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the REPL exited with ${code} before answering every line`)));
    const times = [];
    let sent = 0;
    let sentAt = 0n;
    let output = '';
    const send = () => {
      sent++;
      sentAt = process.hrtime.bigint();
      child.stdin.write(`.a${sent} = ${sent}\n`);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (!output.endsWith('\n')) return;
      if (output !== `${sent}\n`) reject(new Error(`the REPL answered line ${sent} with ${JSON.stringify(output)}`));
      if (sent > 1) times.push(seconds(sentAt));
      output = '';
      if (sent <= REPL_LINES) return send();
      child.removeAllListeners('exit');
      child.stdin.end();
      resolve(median(times));
    });
    send();
  });
}

/** The start-up figures of the build whose CLI is `cli`: median seconds of each row. */
export async function startBenchmark(cli, rounds = ROUNDS) {
  const cold = [];
  for (let i = 0; i < rounds; i++) cold.push(await withCacheDir((dir) => vrlOnce(cli, dir)));
  const cached = await withCacheDir((dir) => {
    vrlOnce(cli, dir);
    return median(Array.from({ length: rounds }, () => vrlOnce(cli, dir)));
  });
  const repl = await withCacheDir((dir) => replLine(cli, dir));
  return { cold: median(cold), cached, repl };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../dist/bin/svc.js', import.meta.url)));
  const { cold, cached, repl } = await startBenchmark(cli);
  const ms = (s) => `${(s * 1000).toFixed(0)} ms`;
  console.log(
    `${cli}: svc vrl '${PROGRAM}' cold ${ms(cold)}, cached ${ms(cached)}; REPL line ${ms(repl)} (load ${os.loadavg()[0].toFixed(1)})`,
  );
}
