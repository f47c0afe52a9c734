import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, readFileSync, renameSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import file from '../../../../host/components/sources/file.js';
import { Timestamp } from '../../../../abi/values.js';
import { pause, startSource } from '../../support/source-harness.js';
import { CodecModule } from '../../../../runtime/engine.js';
import { decodeBatch } from '../../../../abi/batch.js';
import { buildSource, runSource, sourceMetadata, testEnv } from '../../support/sources.js';
import { waitFor } from '../../../support/wait-for.js';

let dir = '';
test.before.each(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-file-source-'));
});
test.after.each(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fast = { glob_minimum_cooldown_ms: 20 };
const messages = (events: Array<Record<string, unknown>>) => events.map((event) => event.message);

test("reads existing files from the beginning, with Vector's fields, and follows appends", async () => {
  const path = join(dir, 'a.log');
  writeFileSync(path, 'one\ntwo\n');
  const source = await startSource(file, { include: [join(dir, '*.log')], ...fast }, { dataDir: dir });
  await source.waitFor(2);
  appendFileSync(path, 'thr');
  await pause(60);
  appendFileSync(path, 'ee\n');
  await source.waitFor(3);
  await source.stop();
  assert.equal(messages(source.events), ['one', 'two', 'three']);
  const event = source.events[0]!;
  assert.equal(Object.keys(event).sort(), ['file', 'host', 'message', 'source_type', 'timestamp']);
  assert.is(event.file, path);
  assert.is(event.host, 'test-host');
  assert.is(event.source_type, 'file');
  assert.instance(event.timestamp, Timestamp);
  assert.is(source.metrics.total('component_received_bytes_total'), 14);
});

test('read_from end skips what is there at start-up; files found later are read from their start', async () => {
  writeFileSync(join(dir, 'a.log'), 'old\n');
  const source = await startSource(
    file,
    { include: [join(dir, '*.log')], read_from: 'end', ...fast },
    { dataDir: dir },
  );
  appendFileSync(join(dir, 'a.log'), 'new\n');
  writeFileSync(join(dir, 'b.log'), 'b1\n');
  await source.waitFor(2);
  await source.stop();
  assert.equal(messages(source.events).sort(), ['b1', 'new']);
});

test('include and exclude globs', async () => {
  writeFileSync(join(dir, 'a.log'), 'a\n');
  writeFileSync(join(dir, 'skip.log'), 'skip\n');
  writeFileSync(join(dir, 'c.txt'), 'c\n');
  const source = await startSource(
    file,
    { include: [join(dir, '*.log')], exclude: [join(dir, 'skip*')], ...fast },
    { dataDir: dir },
  );
  await source.waitFor(1);
  await pause(100);
  await source.stop();
  assert.equal(messages(source.events), ['a']);
});

test('line_delimiter, file_key, host_key and offset_key', async () => {
  writeFileSync(join(dir, 'a.log'), 'x\r\ny\r\n');
  const source = await startSource(
    file,
    {
      include: [join(dir, '*.log')],
      line_delimiter: '\r\n',
      file_key: 'path',
      host_key: '',
      offset_key: 'offset',
      ...fast,
    },
    { dataDir: dir },
  );
  await source.waitFor(2);
  await source.stop();
  assert.equal(
    source.events.map(({ message, path, offset, host }) => ({ message, path, offset, host })),
    [
      { message: 'x', path: join(dir, 'a.log'), offset: 0n, host: undefined },
      { message: 'y', path: join(dir, 'a.log'), offset: 3n, host: undefined },
    ],
  );
});

test("log_namespace: the line is the event; path, host and every line's offset are in %file, whatever the keys", async () => {
  const path = join(dir, 'a.log');
  writeFileSync(path, 'x\nyy\nz\n');
  const source = await startSource(
    file,
    { include: [join(dir, '*.log')], file_key: '', host_key: 'machine', log_namespace: true, ...fast },
    { dataDir: dir },
  );
  await source.waitFor(3);
  await source.stop();
  assert.equal(source.events, ['x', 'yy', 'z']);
  assert.equal(
    source.metadata.map((metadata) => sourceMetadata(metadata, 'file')),
    [0n, 2n, 5n].map((offset) => ({ host: 'test-host', offset, path })),
  );
});

test('lines longer than max_line_bytes are dropped and counted', async () => {
  writeFileSync(join(dir, 'a.log'), 'short\nthis line is too long\nok\n');
  const source = await startSource(
    file,
    { include: [join(dir, '*.log')], max_line_bytes: 10, ...fast },
    { dataDir: dir },
  );
  await source.waitFor(2);
  await source.stop();
  assert.equal(messages(source.events), ['short', 'ok']);
  assert.is(source.metrics.total('component_errors_total', { error_type: 'condition_failed', stage: 'receiving' }), 1);
});

test('a 10 MB line read in max_read_bytes pieces is delivered intact, and the lines after it', async () => {
  const long = 'x'.repeat(10 * 1024 * 1024);
  writeFileSync(join(dir, 'a.log'), `${long}\nafter\n`);
  const source = await startSource(
    file,
    { include: [join(dir, '*.log')], max_line_bytes: 16 * 1024 * 1024, max_read_bytes: 64 * 1024, ...fast },
    { dataDir: dir },
  );
  await source.waitFor(2);
  await source.stop();
  assert.equal(
    source.events.map((event) => String(event.message).length),
    [long.length, 5],
  );
  assert.ok(source.events[0]!.message === long);
});

test('for a consumer that decodes: the lines as the file has them, in batches of at most chunk-size events', async () => {
  const long = 'y'.repeat(3000);
  const lines = ['a', 'b', '', 'c', long, 'd', 'e'];
  const tooLong = 'z'.repeat(5000);
  writeFileSync(join(dir, 'a.log'), `a\nb\n\n${tooLong}\nc\n${long}\nd\ne\n`);
  const source = await buildSource(
    file,
    // Reads of 1 KiB: the long line is joined from several.
    { include: [join(dir, 'a.log')], data_dir: dir, max_line_bytes: 4096, max_read_bytes: 8, ...fast },
    testEnv('file', { chunkSize: 3, consumerDecodes: true }),
  );
  const codec = new CodecModule({ timezone: 'UTC' });
  const batches: Array<{ count: number; messages: unknown[] }> = [];
  const shutdown = new AbortController();
  const done = source.run({
    async send(batch) {
      assert.ok(batch.frames !== undefined, 'frames, not decoded events');
      const { events } = decodeBatch(codec.decode(batch.bytes, batch.frames).batch);
      batches.push({
        count: batch.count,
        messages: events.map(({ event }) => (event as { message: unknown }).message),
      });
      if (batches.flatMap((b) => b.messages).length === lines.length) shutdown.abort();
    },
    shutdown: shutdown.signal,
  });
  await done;
  assert.equal(
    batches.flatMap((b) => b.messages),
    lines,
  );
  assert.ok(batches.every((b) => b.count === b.messages.length && b.count <= 3));
});

test('rotation by rename: the old file is read to its end, the new one from its start; nothing lost or repeated', async () => {
  const path = join(dir, 'app.log');
  writeFileSync(path, 'old 1\n');
  const source = await startSource(file, { include: [path], ...fast }, { dataDir: dir });
  await source.waitFor(1);
  renameSync(path, `${path}.1`);
  appendFileSync(`${path}.1`, 'old 2\n');
  writeFileSync(path, 'new 1\n');
  await source.waitFor(3);
  appendFileSync(path, 'new 2\n');
  await source.waitFor(4);
  await pause(100);
  await source.stop();
  assert.equal(messages(source.events).sort(), ['new 1', 'new 2', 'old 1', 'old 2']);
});

test('truncation: the file is read again from its start', async () => {
  const path = join(dir, 'a.log');
  writeFileSync(path, 'first line\nsecond line\n');
  const source = await startSource(file, { include: [path], ...fast }, { dataDir: dir });
  await source.waitFor(2);
  truncateSync(path, 0);
  await pause(60);
  appendFileSync(path, 'first line\nafter\n');
  await source.waitFor(4);
  await pause(100);
  await source.stop();
  assert.equal(messages(source.events), ['first line', 'second line', 'first line', 'after']);
});

test('a restart goes on from the checkpoints: no line lost, none repeated', async () => {
  const path = join(dir, 'a.log');
  const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`);
  writeFileSync(path, lines.slice(0, 1500).join('\n') + '\n');
  const options = { include: [path], ...fast, max_read_bytes: 512 };
  const first = await startSource(file, options, { dataDir: dir, chunkSize: 50 });
  await first.waitFor(100);
  await first.stop();
  appendFileSync(path, lines.slice(1500).join('\n') + '\n');
  const second = await startSource(file, options, { dataDir: dir, chunkSize: 50 });
  await second.waitFor(2000 - first.events.length);
  await pause(100);
  await second.stop();
  assert.ok(first.events.length < 2000, 'the first run was stopped mid-stream');
  assert.equal([...messages(first.events), ...messages(second.events)], lines);
});

test('with acknowledgements the checkpoint moves only over acknowledged lines, in file order', async () => {
  const path = join(dir, 'a.log');
  writeFileSync(path, 'one\n');
  const options = { include: [path], ...fast, data_dir: dir };
  const start = async () => {
    const source = await buildSource(file, options, testEnv('file', { acknowledgements: true }));
    return { source, run: runSource(source) };
  };
  const first = await start();
  await first.run.waitFor(1);
  appendFileSync(path, 'two\n');
  await first.run.waitFor(2);
  assert.is(first.run.batches.length, 2);
  // The second line is delivered, the first is not: the checkpoint stays before both.
  first.run.batches[1]!.finalizer!.release();
  first.run.shutdown.abort();
  await first.run.done;

  const second = await start();
  await second.run.waitFor(2);
  assert.equal(messages(second.run.events), ['one', 'two']);
  for (const batch of second.run.batches) batch.finalizer!.release();
  second.run.shutdown.abort();
  await second.run.done;
  await second.source.acknowledged!();

  appendFileSync(path, 'three\n');
  const third = await start();
  await third.run.waitFor(1);
  await pause(100);
  third.run.shutdown.abort();
  await third.run.done;
  assert.equal(messages(third.run.events), ['three']);
});

test('ignore_checkpoints reads from the start again', async () => {
  const path = join(dir, 'a.log');
  writeFileSync(path, 'a\nb\n');
  const first = await startSource(file, { include: [path], ...fast }, { dataDir: dir });
  await first.waitFor(2);
  await first.stop();
  const second = await startSource(file, { include: [path], ignore_checkpoints: true, ...fast }, { dataDir: dir });
  await second.waitFor(2);
  await second.stop();
  assert.equal(messages(second.events), ['a', 'b']);
});

test('ignore_older_secs: files not modified for that long are tailed from their end', async () => {
  const old = join(dir, 'old.log');
  writeFileSync(old, 'ancient\n');
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(old, hourAgo, hourAgo);
  writeFileSync(join(dir, 'fresh.log'), 'fresh\n');
  const source = await startSource(
    file,
    { include: [join(dir, '*.log')], ignore_older_secs: 600, ...fast },
    { dataDir: dir },
  );
  await source.waitFor(1);
  appendFileSync(old, 'appended\n');
  await source.waitFor(2);
  await source.stop();
  assert.equal(messages(source.events).sort(), ['appended', 'fresh']);
});

test('checksum fingerprint: two files starting with the same line are one file to it (the most recently modified is read)', async () => {
  // Vector's behaviour: the checksum of the first `fingerprint.lines` lines identifies a file, so a second
  // file with the same first line looks like the first one renamed or copied. Raise `fingerprint.lines` or
  // `ignored_header_bytes` to tell such files apart.
  const older = join(dir, 'a.log');
  const newer = join(dir, 'b.log');
  writeFileSync(older, 'same header\nfrom a\n');
  writeFileSync(newer, 'same header\nfrom b\n');
  const past = new Date(Date.now() - 60_000);
  utimesSync(older, past, past);
  const source = await startSource(file, { include: [join(dir, '*.log')], ...fast }, { dataDir: dir });
  await source.waitFor(2);
  await pause(100);
  await source.stop();
  assert.is(source.events.length, 2, JSON.stringify(source.events));
  assert.ok(source.logs.some((record) => record.message.startsWith('More than one file has the same fingerprint')));

  const distinct = await startSource(
    file,
    { include: [join(dir, '*.log')], fingerprint: { lines: 2 }, ...fast },
    { dataDir: join(dir, 'other') },
  );
  await distinct.waitFor(4);
  await distinct.stop();
  assert.equal(messages(distinct.events).sort(), ['from a', 'from b', 'same header', 'same header']);
});

const JAVA = {
  start_pattern: '^[^\\s]',
  condition_pattern: '^[\\s]+|^Caused by:',
  mode: 'continue_through',
  timeout_ms: 300,
};

test('multiline: a Java stack trace read in small pieces is one event; the last message goes on after timeout_ms', async () => {
  const path = join(dir, 'app.log');
  const trace = 'ERROR boom\n  at a.B.c(B.java:1)\n  at d.E.f(E.java:2)\nCaused by: x\n  at g.H.i(H.java:3)';
  writeFileSync(path, `INFO start\n${trace}\nINFO next\n  detail\n`);
  const options = { include: [path], max_read_bytes: 8, multiline: JAVA, ...fast };
  const source = await startSource(file, options, { dataDir: dir });
  // The last message has no line after it to end it: timeout_ms does.
  await source.waitFor(3);
  await source.stop();
  assert.equal(messages(source.events), ['INFO start', trace, 'INFO next\n  detail']);
  assert.is(source.events[1]!.file, path);
});

test('multiline: the checkpoint stays at the first line of a message being gathered', async () => {
  const path = join(dir, 'app.log');
  writeFileSync(path, 'INFO a\nERROR b\n  at x\n');
  const options = { include: [path], multiline: { ...JAVA, timeout_ms: 60_000 }, offset_key: 'offset', ...fast };
  const source = await startSource(file, options, { dataDir: dir });
  await source.waitFor(1);
  const stored = join(dir, 'in', 'checkpoints.json');
  const position = () => {
    try {
      return (JSON.parse(readFileSync(stored, 'utf8')) as { checkpoints: Array<{ position: number }> }).checkpoints[0]
        ?.position;
    } catch {
      return undefined;
    }
  };
  // Saved once a second: `INFO a` is behind it, `ERROR b` (held) is not.
  await waitFor(
    () => position() !== undefined,
    () => 'no checkpoint saved',
  );
  assert.is(position(), 7);
  appendFileSync(path, '  at y\nINFO c\n');
  await waitFor(
    () => position() === 29,
    () => `checkpoint at ${position()}, not at the start of INFO c (29)`,
  );
  await source.stop();
  assert.equal(messages(source.events), ['INFO a', 'ERROR b\n  at x\n  at y', 'INFO c']);
  assert.equal(
    source.events.map((event) => event.offset),
    [0n, 7n, 29n],
  );
});

test('unknown options are errors', () => {
  assert.throws(() => file.options.parse({ include: ['/x'], includ: [] }));
  assert.throws(() => file.options.parse({}));
});

test.run();
