// Runs the compiled tests (dist-test/test/**/*.test.js; `npm run build` writes them), each file in a uvu
// process of its own, one more at once than there are cores (at least three: most files wait on servers and
// processes more than they compute), the slowest first by the durations
// of earlier runs (remembered in .cache/test-durations.json). Each file's output is printed in one piece
// when the file ends; the last line is `N passed, M failed` (plus `, K skipped`). Fails when a test failed,
// when a file ended before uvu's totals (it threw on import, crashed or hung past FILE_TIMEOUT_MS), when its
// process did not exit within EXIT_AFTER_TOTALS_MS of its tests' end, or when no test ran.
//
//   node test/run.mjs [--unit] [--integration] [filter...]
//
// Unit and integration tests: a test file is an integration test when it starts processes, listens on a
// port or socket, or drives a browser or a terminal (directly or through the code it tests); those files
// and folders are listed in INTEGRATION. Every other file is a unit test, run with test/support/unit-guard.mjs,
// which fails it when it starts a process or listens. `--unit` and `--integration`
// select a kind (both, or neither: all); a filter keeps the files whose path under test/ starts with it
// (`host/api`, `cli/tap.test`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testRoot = join(root, 'dist-test/test');
const uvuBin = fileURLToPath(new URL('../node_modules/uvu/bin.js', import.meta.url));
const unitGuard = new URL('./support/unit-guard.mjs', import.meta.url).href;
const durationsFile = join(root, '.cache/test-durations.json');
/** A file still running after this long is stopped and counted as failed. */
const FILE_TIMEOUT_MS = 5 * 60_000;
/** A file whose tests have ended (uvu printed its totals) and whose process has not exited this much later is
 * stopped and counted as failed: something it opened (a server, a connection, a timer) keeps it alive. */
const EXIT_AFTER_TOTALS_MS = 30_000;

/** Integration test files (paths under test/ without `.test.ts`) and folders (ending in `/`: all their files). */
const INTEGRATION = [
  'cli/api-client',
  'cli/enrichment-tables',
  'cli/generate',
  'cli/graph',
  'cli/list',
  'cli/main',
  'cli/memory-table',
  'cli/service',
  'cli/tap',
  'cli/test',
  'cli/top',
  'cli/top/connection',
  'cli/validate',
  'cli/vrl',
  'compiler/codegen/binaryen',
  'host/api/bad-clients',
  'host/api/host-metrics',
  'host/api/legacy-ws',
  'host/api/playground',
  'host/api/server',
  'host/api/tap',
  'host/api/tls',
  'host/api/vector-documents',
  'host/api/websocket',
  'host/components/sinks/aws_s3',
  'host/components/sinks/console',
  'host/components/sinks/elasticsearch',
  'host/components/sinks/http',
  'host/components/sinks/influxdb_logs',
  'host/components/sinks/influxdb_metrics',
  'host/components/sinks/index',
  'host/components/sinks/loki',
  'host/components/sinks/nats',
  'host/components/sinks/prometheus_exporter',
  'host/components/sinks/prometheus_remote_write',
  'host/components/sinks/opentelemetry',
  'host/components/sinks/redis',
  'host/components/sinks/socket',
  'host/components/sinks/splunk_hec_logs',
  'host/components/sinks/splunk_hec_metrics',
  'host/components/sinks/vector',
  'host/components/sources/amqp',
  'host/components/sources/amqp-kill',
  'host/components/sources/eventdb_metrics',
  'host/components/sources/exec',
  'host/components/sources/http_server',
  'host/components/sources/kafka',
  'host/components/sources/kafka-kill',
  'host/components/sources/mqtt',
  'host/components/sources/prometheus_remote_write',
  'host/components/sources/prometheus_scrape',
  'host/components/sources/nats',
  'host/components/sources/opentelemetry',
  'host/components/sources/nats-kill',
  'host/components/sources/redis',
  'host/components/sources/redis-kill',
  'host/components/sources/socket',
  'host/components/sources/splunk_hec',
  'host/components/sources/statsd',
  'host/components/sources/stdin',
  'host/components/sources/syslog',
  'host/components/sources/vector',
  'host/components/sources/vector-scale-out',
  'host/components/support/tls',
  'host/components/transforms/metrics-pipeline',
  'host/components/transforms/reduce-pipeline',
  'host/components/transforms/remap',
  'host/config/secrets',
  'host/crash',
  'host/log-destinations',
  'host/metrics-end-to-end',
  'host/log-namespace',
  'host/log-rate-limit',
  'host/pipeline',
  'host/pipeline-flow',
  'host/reload',
  'host/secrets',
  'host/service',
  'host/telemetry/pipeline-telemetry',
  'host/topology/disk-buffer-kill',
  'host/spec-features',
  'readme',
  'reliability/',
  'runtime/differential',
  'runtime/js-functions/io',
];

const isIntegration = (name) =>
  INTEGRATION.some((entry) => (entry.endsWith('/') ? name.startsWith(entry) : name === entry));

/** Test files under test/, as paths without their `.test.js`. */
function testNames(dir = testRoot) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testNames(path);
    return entry.name.endsWith('.test.js') ? [relative(testRoot, path).slice(0, -'.test.js'.length)] : [];
  });
}

function selectedNames(args, names) {
  const unit = args.includes('--unit');
  const integration = args.includes('--integration');
  const unknown = args.filter((arg) => arg.startsWith('--') && arg !== '--unit' && arg !== '--integration');
  if (unknown.length > 0)
    throw new Error(
      `unknown option ${unknown.join(', ')} (usage: node test/run.mjs [--unit] [--integration] [filter...])`,
    );
  // `test/host/api/x.test.ts` and `host/api/x` name the same file.
  const filters = args
    .filter((arg) => !arg.startsWith('--'))
    .map((arg) => arg.replace(/^(dist-test\/)?test\//, '').replace(/(\.test)?\.[jt]s$/, ''));
  return names.filter((name) => {
    if (unit !== integration && isIntegration(name) !== integration) return false;
    return filters.length === 0 || filters.some((filter) => name.startsWith(filter));
  });
}

function readDurations() {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8'));
  } catch {
    return {};
  }
}

/** uvu's closing block: `Total: N`, `Passed: N`, `Skipped: N` (possibly colored). */
function totals(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const count = (label) => {
    const match = new RegExp(`^\\s*${label}:\\s+(\\d+)\\s*$`, 'm').exec(plain);
    return match ? Number(match[1]) : undefined;
  };
  const total = count('Total');
  const passed = count('Passed');
  if (total === undefined || passed === undefined) return undefined;
  return { passed, failed: total - passed, skipped: count('Skipped') ?? 0 };
}

/** Child process groups still running, stopped when this runner is interrupted. */
const running = new Set();

/** Runs one test file with uvu; resolves with its output, exit code and duration. */
function runFile(name) {
  const file = join(testRoot, `${name}.test.js`);
  const pattern = `^${`${name.split('/').pop()}.test.js`.replace(/[.]/g, '\\.')}$`;
  const args = [
    ...(isIntegration(name) ? [] : ['--import', unitGuard]),
    uvuBin,
    relative(root, dirname(file)),
    pattern,
  ];
  if (!process.stdout.isTTY) args.push('--no-color');
  const started = Date.now();
  // A process group of its own, so that a timeout also stops the processes the test started.
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let output = '';
  let lingered = false;
  let exitTimer;
  const collect = (chunk) => {
    output += chunk;
    if (exitTimer === undefined && totals(output) !== undefined)
      exitTimer = setTimeout(() => {
        lingered = true;
        killGroup(child);
      }, EXIT_AFTER_TOTALS_MS);
  };
  child.stdout.setEncoding('utf8').on('data', collect);
  child.stderr.setEncoding('utf8').on('data', collect);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, FILE_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(exitTimer);
      running.delete(child);
      resolve({ name, code, output, timedOut, lingered, ms: Date.now() - started });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}

/** The file's outcome: its counts, and why it failed beyond them (a crash or a timeout). */
function judge({ code, output, timedOut, lingered }) {
  const counted = totals(output);
  if (lingered)
    return {
      counts: { ...counted, failed: counted.failed + 1 },
      problem: `did not exit within ${EXIT_AFTER_TOTALS_MS / 1000} s of its tests' end (a server, connection or timer left open)`,
    };
  if (timedOut)
    return {
      counts: counted ?? { passed: 0, failed: 1, skipped: 0 },
      problem: `stopped after ${FILE_TIMEOUT_MS / 1000} s`,
    };
  if (!counted)
    return { counts: { passed: 0, failed: 1, skipped: 0 }, problem: `exited with code ${code} before uvu's totals` };
  if (code !== 0 && counted.failed === 0)
    return { counts: { ...counted, failed: 1 }, problem: `exited with code ${code}` };
  return { counts: counted, problem: undefined };
}

const allNames = testNames();
// An entry that names no file (a test renamed or moved) would let its file run as a unit test.
const stale = INTEGRATION.filter(
  (entry) => !allNames.some((name) => isIntegration(name) && (name === entry || name.startsWith(entry))),
);
if (allNames.length > 0 && stale.length > 0) {
  console.error(`test: INTEGRATION in test/run.mjs names no test file: ${stale.join(', ')}`);
  process.exit(2);
}
let names;
try {
  names = selectedNames(process.argv.slice(2), allNames);
} catch (error) {
  console.error(`test: ${error.message}`);
  process.exit(2);
}
const durations = readDurations();
// Slowest first; files without a recorded duration before all others, integration tests (the slow kind) first.
const expected = (name) => durations[name] ?? (isIntegration(name) ? Infinity : Number.MAX_VALUE);
const queue = [...names].sort((a, b) => expected(b) - expected(a) || (a < b ? -1 : 1));
const workers = Math.max(2, os.availableParallelism()) + 1;
const sum = { passed: 0, failed: 0, skipped: 0 };
const failedFiles = [];
const started = Date.now();

async function worker() {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const result = await runFile(name);
    const { counts, problem } = judge(result);
    for (const key of Object.keys(sum)) sum[key] += counts[key];
    durations[name] = result.ms;
    if (counts.failed > 0) failedFiles.push(`${name}.test.js${problem ? ` (${problem})` : ''}`);
    const mark = counts.failed > 0 ? 'FAIL' : 'ok';
    process.stdout.write(
      `── ${mark} ${name}.test.js (${(result.ms / 1000).toFixed(1)} s)${problem ? `: ${problem}` : ''}\n${result.output.trimEnd()}\n\n`,
    );
  }
}

await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, worker));
mkdirSync(dirname(durationsFile), { recursive: true });
// Only the files there are now: a deleted or renamed test's duration goes.
writeFileSync(
  durationsFile,
  JSON.stringify(
    Object.fromEntries(allNames.filter((name) => name in durations).map((name) => [name, durations[name]])),
    null,
    2,
  ) + '\n',
);

console.log(
  `test: ${names.length} file${names.length === 1 ? '' : 's'} on ${workers} workers in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (failedFiles.length > 0) console.log(`test: failed:\n${failedFiles.map((file) => `  ${file}`).join('\n')}`);
const ranNothing = sum.passed + sum.failed === 0;
if (ranNothing) console.error('test: no test ran');
console.log(`${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}`);
process.exitCode = sum.failed > 0 || ranNothing ? 1 : 0;
