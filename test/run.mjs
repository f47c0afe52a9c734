// Runs every compiled test (dist/test/**/*.test.js) with uvu, streams its output, and ends with one line:
// `N passed, M failed` (plus `, K skipped`). Fails when a test failed, when uvu stopped before reporting
// its totals (a test file that throws on import), or when no test ran at all.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const uvuBin = fileURLToPath(new URL('../node_modules/uvu/bin.js', import.meta.url));

/** Runs uvu, echoing its stdout as it comes, and resolves with its exit code and full stdout. */
function runUvu() {
  const args = [uvuBin, 'dist/test', '\\.test\\.js$'];
  if (!process.stdout.isTTY) args.push('--no-color');
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
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
  const skipped = count('Skipped');
  if (total === undefined || passed === undefined) return undefined;
  return { passed, failed: total - passed, skipped: skipped ?? 0 };
}

const { code, output } = await runUvu();
const counted = totals(output);
// uvu died before its summary: count the run as one failure rather than report nothing.
if (!counted) console.error(`test: uvu exited with code ${code} before reporting totals`);
const result = counted ?? { passed: 0, failed: 1, skipped: 0 };
const ranNothing = result.passed + result.failed === 0;
if (ranNothing) console.error('test: no test ran');

console.log(`${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ''}`);
process.exitCode = result.failed > 0 || ranNothing || code !== 0 ? 1 : 0;
