import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Timestamp } from '../../../../abi/values.js';
import { stdinSource } from '../../../../host/components/sources/stdin.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';
import { main, tempDir } from '../../support/svc.js';

test('lines become events with source_type, host and timestamp; the last unterminated line counts; EOF ends the source', async () => {
  const input = new PassThrough();
  const source = await buildSource(
    stdinSource(() => input),
    {},
    testEnv('stdin'),
  );
  const run = runSource(source);
  input.write('hello\nwor');
  input.end('ld\nlast');
  await run.done;
  assert.equal(
    run.events.map((e) => e.message),
    ['hello', 'world', 'last'],
  );
  assert.is(run.events[0]!.source_type, 'stdin');
  assert.is(run.events[0]!.host, 'test-host');
  assert.ok(run.events[0]!.timestamp !== undefined);
});

test("Vector's log namespace: the line is the event, source type, time and host are metadata (global or per source)", async () => {
  const run = async (options: object, env = testEnv('stdin')) => {
    const input = new PassThrough();
    const collected = runSource(
      await buildSource(
        stdinSource(() => input),
        options,
        env,
      ),
    );
    input.end('hello\n{"a":1}\n');
    await collected.done;
    return collected;
  };
  const namespaced = await run({ log_namespace: true });
  assert.equal(namespaced.events, ['hello', '{"a":1}']);
  const { vector, stdin } = namespaced.metadata[0] as { vector: Record<string, unknown>; stdin: unknown };
  assert.is(vector.source_type, 'stdin');
  assert.ok(vector.ingest_timestamp instanceof Timestamp);
  assert.equal(stdin, { host: 'test-host' });

  const globalEnv = testEnv('stdin');
  const global = { ...globalEnv, globals: { ...globalEnv.globals, schema: { log_namespace: true } } };
  const json = await run({ decoding: { codec: 'json' } }, global);
  // The json codec's value is the event, whatever it is: the line `hello` is not JSON.
  assert.equal(json.events, [{ a: 1n }]);
  assert.equal(Object.keys(json.metadata[0]!).sort(), ['stdin', 'vector']);

  // The source's own false wins over the global true: the legacy shape, metadata empty.
  const legacy = await run({ log_namespace: false }, global);
  assert.is(legacy.events[0]!.message, 'hello');
  assert.is(legacy.events[0]!.source_type, 'stdin');
  assert.equal(legacy.metadata[0], {});
});

test('max_length truncates long lines; host_key moves the host; decoding json parses', async () => {
  const input = new PassThrough();
  const source = await buildSource(
    stdinSource(() => input),
    { max_length: 4, host_key: 'machine' },
    testEnv('stdin'),
  );
  const run = runSource(source);
  input.end('abcdefgh\nxy\n');
  await run.done;
  assert.equal(
    run.events.map((e) => e.message),
    ['abcd', 'xy'],
  );
  assert.is(run.events[0]!.machine, 'test-host');

  const json = new PassThrough();
  const jsonRun = runSource(
    await buildSource(
      stdinSource(() => json),
      { decoding: { codec: 'json' } },
      testEnv('stdin'),
    ),
  );
  json.end('{"a":1}\n');
  await jsonRun.done;
  assert.is(jsonRun.events[0]!.a, 1n);
});

test('a 10 MB line written in small pieces is delivered intact, and the line after it', async () => {
  const input = new PassThrough();
  const run = runSource(
    await buildSource(
      stdinSource(() => input),
      { max_length: 16 * 1024 * 1024 },
      testEnv('stdin'),
    ),
  );
  const length = 10 * 1024 * 1024;
  const piece = Buffer.alloc(4096, 'x');
  for (let written = 0; written < length; written += piece.length) if (!input.write(piece)) await once(input, 'drain');
  input.end('\nafter\n');
  await run.done;
  assert.equal(
    run.events.map((e) => String(e.message).length),
    [length, 5],
  );
});

test('a slow consumer holds reading back: the input stream fills up instead of memory', async () => {
  const input = new PassThrough({ highWaterMark: 1024 });
  const source = await buildSource(
    stdinSource(() => input),
    {},
    testEnv('stdin', { chunkSize: 10 }),
  );
  const run = runSource(source, { delayMs: 50 });
  const line = Buffer.from('x'.repeat(99) + '\n');
  let accepted = 0;
  while (input.write(line)) accepted++;
  // The writer is told to wait long before everything is consumed.
  assert.ok(accepted < 100, `accepted ${accepted} writes`);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(run.events.length < accepted + 1);
  input.end();
  await run.done;
  assert.is(run.events.length, accepted + 1);
});

test('shutdown stops reading and the source returns', async () => {
  const input = new PassThrough();
  const run = runSource(
    await buildSource(
      stdinSource(() => input),
      {},
      testEnv('stdin'),
    ),
  );
  input.write('one\n');
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  assert.equal(
    run.events.map((e) => e.message),
    ['one'],
  );
});

test('for a consumer that decodes: whole lines in batches of at most chunk-size events, a line split over reads joined once', async () => {
  const input = new PassThrough();
  const source = await buildSource(
    stdinSource(() => input),
    {},
    testEnv('stdin', { chunkSize: 3, consumerDecodes: true }),
  );
  const batches: Array<{ text: string; count: number }> = [];
  const done = source.run({
    async send(batch) {
      assert.ok(batch.frames !== undefined, 'frames, not decoded events');
      batches.push({ text: Buffer.from(batch.bytes).toString(), count: batch.count });
    },
    shutdown: new AbortController().signal,
  });
  const long = 'y'.repeat(10_000);
  input.write('a\nb\nc\nd\ne\n');
  for (let at = 0; at < long.length; at += 1000) {
    input.write(long.slice(at, at + 1000));
    await new Promise((resolve) => setImmediate(resolve));
  }
  input.end('\nlast');
  await done;
  assert.equal(
    batches.map((b) => b.count),
    [3, 2, 1, 1],
  );
  assert.equal(batches.map((b) => b.text).join(''), `a\nb\nc\nd\ne\n${long}\nlast`);
  assert.ok(batches.every((b) => b.text.split('\n').filter(Boolean).length === b.count));
});

test('svc reads standard input redirected from a file and from a pipe whole, through a remap, in order', async () => {
  const dir = tempDir();
  const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, text: 'x'.repeat(i % 300) }));
  const input = join(dir, 'events.ndjson');
  writeFileSync(input, `${lines.join('\n')}\n{"i":"last"}`);
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    'sources:\n  in: { type: stdin, decoding: { codec: json } }\ntransforms:\n  r: { type: remap, inputs: [in], source: "del(.text); del(.timestamp)" }\nsinks:\n  out: { type: console, inputs: [r], encoding: { codec: json } }\n',
  );
  const expected = [
    ...lines.map((_, i) => JSON.stringify({ host: 'H', i, source_type: 'stdin' })),
    '{"host":"H","i":"last","source_type":"stdin"}',
  ];
  for (const command of [
    `"$0" "$1" -q --threads 2 --config "$2" < "$3"`,
    `cat "$3" | "$0" "$1" -q --threads 2 --config "$2"`,
  ]) {
    const { stdout } = await promisify(execFile)('/bin/bash', ['-c', command, process.execPath, main, config, input], {
      env: { ...process.env, HOSTNAME: 'H' },
      maxBuffer: 1 << 26,
    });
    const events = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.stringify({ ...JSON.parse(line), host: 'H' }));
    assert.equal(events, expected, command);
  }
});

test('svc stops on SIGTERM while its standard input, a pipe, stays open and silent', async () => {
  const dir = tempDir();
  const fifo = join(dir, 'in.fifo');
  execFileSync('mkfifo', [fifo]);
  // Read and write: opening does not wait for another end, and the pipe never reaches its end.
  const fd = openSync(fifo, 'r+');
  writeSync(fd, 'hello\n');
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    'sources:\n  in: { type: stdin }\nsinks:\n  out: { type: console, inputs: [in], encoding: { codec: text } }\n',
  );
  const child = spawn(process.execPath, [main, '-q', '--config', config], { stdio: [fd, 'pipe', 'ignore'] });
  let stdout = '';
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk) === 'hello\n' && resolve()),
  );
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(killer);
  closeSync(fd);
  assert.equal({ code, signal, stdout }, { code: 0, signal: null, stdout: 'hello\n' });
});

test.run();
