// The file sink on a temp dir: templated paths (fields and strftime), appending, gzip and zstd bodies that
// decode to what was written, events whose path does not render, and idle files closed.

import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import file from '../../../../host/components/sinks/file.js';
import { Timestamp } from '../../../../runtime/index.js';
import { componentEnv, logBatch } from '../../support/env.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-file-sink-'));

async function build(options: object) {
  const env = componentEnv(file);
  const sink = await file.build(file.options.parse(options), env);
  return { env, sink };
}

const at = (iso: string) => Timestamp.fromDate(new Date(iso));

test('a template path with strftime and fields: each event goes to its own file, appended', async () => {
  const root = join(dir, 'templates');
  const { env, sink } = await build({ path: `${root}/%Y-%m-%d/{{ app }}.log`, encoding: { codec: 'text' } });
  await sink.write(
    logBatch([
      { message: 'a1', app: 'a', timestamp: at('2024-05-06T10:00:00Z') },
      { message: 'b1', app: 'b', timestamp: at('2024-05-06T11:00:00Z') },
      { message: 'no app', timestamp: at('2024-05-06T11:00:00Z') },
      { message: 'a2', app: 'a', timestamp: at('2024-05-07T00:00:01Z') },
    ]),
  );
  await sink.write(logBatch([{ message: 'a3', app: 'a', timestamp: at('2024-05-06T12:00:00Z') }]));
  await sink.close();
  assert.is(readFileSync(`${root}/2024-05-06/a.log`, 'utf8'), 'a1\na3\n');
  assert.is(readFileSync(`${root}/2024-05-06/b.log`, 'utf8'), 'b1\n');
  assert.is(readFileSync(`${root}/2024-05-07/a.log`, 'utf8'), 'a2\n');
  assert.is(env.metrics.total('component_errors_total', { error_type: 'template_failed' }), 1);
  assert.is(env.metrics.total('component_discarded_events_total'), 1);
  assert.ok(env.logs.some((record) => record.message.includes('Missing fields on event: ["app"]')));
});

test('a fixed path is appended to: what the file held stays', async () => {
  const path = join(dir, 'fixed.log');
  writeFileSync(path, 'before\n');
  const { env, sink } = await build({ path, encoding: { codec: 'json' } });
  await sink.write(logBatch([{ message: 'x' }]));
  await sink.close();
  assert.is(readFileSync(path, 'utf8'), 'before\n{"message":"x"}\n');
  assert.is(env.metrics.total('component_sent_bytes_total'), '{"message":"x"}\n'.length);
});

test('gzip: several writes decode to everything written', async () => {
  const path = join(dir, 'out.log.gz');
  const { sink } = await build({ path, encoding: { codec: 'text' }, compression: 'gzip' });
  await sink.write(logBatch([{ message: 'one' }, { message: 'two' }]));
  await sink.write(logBatch([{ message: 'three' }]));
  await sink.close();
  assert.is(gunzipSync(readFileSync(path)).toString(), 'one\ntwo\nthree\n');
});

test('zstd: the file decodes to what was written', async () => {
  const path = join(dir, 'out.log.zst');
  const { sink } = await build({ path, encoding: { codec: 'text' }, compression: 'zstd' });
  await sink.write(logBatch([{ message: 'one' }, { message: 'two' }]));
  await sink.close();
  // The sink initialised the zstd module (a second init() breaks the library's decompress).
  const { decompress } = await import('@bokuweb/zstd-wasm');
  assert.is(Buffer.from(decompress(readFileSync(path))).toString(), 'one\ntwo\n');
});

test('idle_timeout_secs closes a file not written for that long; the next write opens it again', async () => {
  const path = join(dir, 'idle.log');
  const { env, sink } = await build({ path, encoding: { codec: 'text' }, idle_timeout_secs: 1 });
  await sink.write(logBatch([{ message: 'first' }]));
  assert.is(env.metrics.total('open_files'), 1);
  while (env.metrics.total('open_files') > 0) await sleep(50);
  // Closed: a file removed now is created again by the next write (an open handle would write to the old one).
  unlinkSync(path);
  await sink.write(logBatch([{ message: 'second' }]));
  await sink.close();
  assert.is(readFileSync(path, 'utf8'), 'second\n');
  assert.is(env.metrics.total('open_files'), 0);
});

test('a path that cannot be written is a counted error, the sink goes on', async () => {
  const blocker = join(dir, 'not-a-dir');
  writeFileSync(blocker, '');
  const { env, sink } = await build({ path: `${dir}/{{ where }}/x.log`, encoding: { codec: 'text' } });
  await sink.write(
    logBatch([
      { message: 'lost', where: 'not-a-dir' },
      { message: 'kept', where: 'ok' },
    ]),
  );
  await sink.close();
  assert.is(readFileSync(join(dir, 'ok/x.log'), 'utf8'), 'kept\n');
  assert.is(env.metrics.total('component_errors_total', { error_type: 'io_failed' }), 1);
  assert.is(env.metrics.total('component_discarded_events_total'), 1);
  assert.not.ok(existsSync(join(dir, 'not-a-dir/x.log')));
});

test('options: path and encoding required; an invalid template is an error', () => {
  assert.not.ok(file.options.safeParse({ encoding: { codec: 'text' } }).success);
  assert.not.ok(file.options.safeParse({ path: '/tmp/x' }).success);
  assert.not.ok(file.options.safeParse({ path: '/tmp/%Q', encoding: { codec: 'text' } }).success);
  const parsed = file.options.parse({ path: '/tmp/x', encoding: { codec: 'text' } });
  assert.is(parsed.idle_timeout_secs, 30);
  assert.is(parsed.compression, 'none');
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
