// The file source under rotation, while a writer appends numbered lines: each way of rotating a log loses no
// line. The writer runs in the test's event loop, a batch of lines at a time, so the source reads between
// batches and the rotation falls mid-stream.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeSync, copyFileSync, ftruncateSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import file from '../../../../host/components/sources/file.js';
import { pause, startSource, type RunningSource } from '../../support/source-harness.js';
import { waitFor } from '../../../support/wait-for.js';

let dir = '';
test.before.each(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-file-rotation-'));
});
test.after.each(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TOTAL = 20_000;
const BATCH = 100;

/** Appends lines `from` to `to - 1` ("line N") to `fd`, a batch at a time, the source running between. */
async function writeLines(fd: number, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += BATCH) {
    const end = Math.min(start + BATCH, to);
    let text = '';
    for (let n = start; n < end; n++) text += `line ${n}\n`;
    writeSync(fd, text);
    await pause(1);
  }
}

/** How many times each line number was emitted. */
function tally(source: RunningSource): number[] {
  const counts = new Array<number>(TOTAL).fill(0);
  for (const { message } of source.events) {
    const n = Number(String(message).slice('line '.length));
    assert.ok(Number.isInteger(n) && n >= 0 && n < TOTAL, `unexpected line ${String(message)}`);
    counts[n]!++;
  }
  return counts;
}

const missing = (source: RunningSource) => tally(source).filter((count) => count === 0).length;

/** Waits until every line was emitted at least once; fails naming how many are missing. */
const allEmitted = (source: RunningSource) =>
  waitFor(
    () => source.events.length >= TOTAL && missing(source) === 0,
    () => `${missing(source)} of ${TOTAL} lines missing (${source.events.length} events)`,
  );

const fast = { glob_minimum_cooldown_ms: 20 };

for (const rotate_wait_secs of [undefined, 10]) {
  test(`rename while the writer holds the file, reopened later (rotate_wait_secs ${rotate_wait_secs ?? 'default'}): no line lost or repeated`, async () => {
    const path = join(dir, 'app.log');
    const source = await startSource(file, { include: [path], rotate_wait_secs, ...fast }, { dataDir: dir });
    let fd = openSync(path, 'a');
    await writeLines(fd, 0, 8_000);
    renameSync(path, `${path}.1`);
    // The writer goes on writing to the renamed file for a while before it reopens its path (logrotate
    // without copytruncate, then a signal to the writer).
    await writeLines(fd, 8_000, 12_000);
    closeSync(fd);
    fd = openSync(path, 'a');
    await writeLines(fd, 12_000, TOTAL);
    closeSync(fd);
    await allEmitted(source);
    await source.stop();
    assert.is(source.events.length, TOTAL, 'no line repeated');
  });
}

test('a file deleted while its writer still writes is read to the end of what it writes: no line lost or repeated', async () => {
  const path = join(dir, 'app.log');
  const source = await startSource(file, { include: [path], ...fast }, { dataDir: dir });
  const fd = openSync(path, 'a');
  await writeLines(fd, 0, 8_000);
  unlinkSync(path);
  await writeLines(fd, 8_000, TOTAL);
  closeSync(fd);
  await allEmitted(source);
  await source.stop();
  assert.is(source.events.length, TOTAL, 'no line repeated');
});

test('copytruncate with the copy included: the copy is read on from where the original was, the original from its start; no line lost', async () => {
  const path = join(dir, 'app.log');
  const source = await startSource(file, { include: [`${path}*`], ...fast }, { dataDir: dir });
  const fd = openSync(path, 'a');
  await writeLines(fd, 0, 8_000);
  // The writer appends (O_APPEND), so after the truncation it writes at the new end.
  copyFileSync(path, `${path}.1`);
  ftruncateSync(fd, 0);
  await writeLines(fd, 8_000, TOTAL);
  closeSync(fd);
  await allEmitted(source);
  await source.stop();
  // As in Vector, copytruncate can repeat lines (none are lost): when discovery lists the files before the
  // copy is made and fingerprints the original after its truncation, the original is read from its start
  // and the copy, found next, from the last checkpoint, which may be behind what was read.
});

test('truncated and written past the old size before the next read: the new content is read from its start', async () => {
  const path = join(dir, 'app.log');
  const source = await startSource(file, { include: [path], ...fast }, { dataDir: dir });
  const fd = openSync(path, 'a');
  await writeLines(fd, 0, 5_000);
  // The lines there before the truncation are gone with it: they must have been read.
  await waitFor(
    () => source.events.length === 5_000,
    () => `${source.events.length} of 5000 lines before the truncation`,
  );
  // One synchronous step, so the source cannot look in between: truncated, then more than the old size.
  ftruncateSync(fd, 0);
  let text = '';
  for (let n = 5_000; n < 15_000; n++) text += `line ${n}\n`;
  writeSync(fd, text);
  await writeLines(fd, 15_000, TOTAL);
  closeSync(fd);
  await allEmitted(source);
  await source.stop();
  assert.is(source.events.length, TOTAL, 'no line repeated');
  assert.ok(source.logs.some((record) => record.message === `File ${path} was truncated: reading it from the start.`));
});

test('rotate_wait_secs bounds how long a renamed file is kept open: its last line is handed on, then it is unwatched', async () => {
  const path = join(dir, 'app.log');
  const source = await startSource(file, { include: [path], rotate_wait_secs: 0, ...fast }, { dataDir: dir });
  const fd = openSync(path, 'a');
  writeSync(fd, 'first\nunfinished');
  await source.waitFor(1);
  renameSync(path, `${path}.1`);
  await waitFor(
    () => source.logs.some((record) => record.message === `Stopped watching file ${path}.`),
    () => 'the renamed file was not unwatched',
  );
  closeSync(fd);
  await source.stop();
  assert.equal(
    source.events.map((event) => event.message),
    ['first', 'unfinished'],
  );
});

test.run();
