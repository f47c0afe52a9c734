import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stdinSource } from '../../../../host/components/sources/stdin.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';

test('lines become events with source_type, host and timestamp; the last unterminated line counts; EOF ends the source', async () => {
  const input = new PassThrough();
  const source = await buildSource(stdinSource(() => input), {}, testEnv('stdin'));
  const run = runSource(source);
  input.write('hello\nwor');
  input.end('ld\nlast');
  await run.done;
  assert.equal(run.events.map((e) => e.message), ['hello', 'world', 'last']);
  assert.is(run.events[0]!.source_type, 'stdin');
  assert.is(run.events[0]!.host, 'test-host');
  assert.ok(run.events[0]!.timestamp !== undefined);
});

test('max_length truncates long lines; host_key moves the host; decoding json parses', async () => {
  const input = new PassThrough();
  const source = await buildSource(stdinSource(() => input), { max_length: 4, host_key: 'machine' }, testEnv('stdin'));
  const run = runSource(source);
  input.end('abcdefgh\nxy\n');
  await run.done;
  assert.equal(run.events.map((e) => e.message), ['abcd', 'xy']);
  assert.is(run.events[0]!.machine, 'test-host');

  const json = new PassThrough();
  const jsonRun = runSource(await buildSource(stdinSource(() => json), { decoding: { codec: 'json' } }, testEnv('stdin')));
  json.end('{"a":1}\n');
  await jsonRun.done;
  assert.is(jsonRun.events[0]!.a, 1n);
});

test('a slow consumer holds reading back: the input stream fills up instead of memory', async () => {
  const input = new PassThrough({ highWaterMark: 1024 });
  const source = await buildSource(stdinSource(() => input), {}, testEnv('stdin', { chunkSize: 10 }));
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
  const run = runSource(await buildSource(stdinSource(() => input), {}, testEnv('stdin')));
  input.write('one\n');
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  assert.equal(run.events.map((e) => e.message), ['one']);
});

test.run();
