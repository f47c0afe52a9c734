// Runs the upstream conformance suite (../shared/conformance/run.mjs) when it is present, prints its count
// and compares it with the recorded one (test/conformance-baseline.json). Fails only when the runner cannot
// run or the count drops below the record; a higher count is reported, and raising the record is a change
// made by hand (the test run writes no tracked file).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runner = fileURLToPath(new URL('../../shared/conformance/run.mjs', import.meta.url));
const baselineFile = fileURLToPath(new URL('../test/conformance-baseline.json', import.meta.url));

if (!existsSync(runner)) {
  console.log('conformance: ../shared/conformance is absent, skipped');
  process.exit(0);
}
// A generous per-case timeout: a loaded machine must not turn slow compiles into lost cases.
const result = spawnSync(process.execPath, [runner, '--timeout', '60000'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});
const lastLine = (result.stdout ?? '').trim().split('\n').pop() ?? '';
const match = /^(\d+) passed, (\d+) failed$/.exec(lastLine);
if (result.status !== 0 || !match) {
  process.stderr.write(result.stdout?.slice(-2000) ?? '');
  process.stderr.write(result.stderr ?? '');
  console.error(`conformance: the runner could not run (exit ${result.status})`);
  process.exit(1);
}
const passed = Number(match[1]);
const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
console.log(`conformance: ${lastLine} (recorded: ${baseline.passed} passed)`);
if (passed < baseline.passed) {
  console.error(`conformance: ${baseline.passed - passed} fewer examples pass than recorded`);
  process.exit(1);
}
if (passed > baseline.passed) {
  console.log(
    `conformance: ${passed - baseline.passed} more examples pass than recorded; to raise the bar, set "passed": ${passed} in test/conformance-baseline.json`,
  );
}
