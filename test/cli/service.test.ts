// The service's root options through the real executable: SVC_* variables, --config-dir, several --config
// with a glob, --allow-empty-config, --log-format json, -q, and `svc run` as an alias.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines, runSvc, startSvc, tempDir, writeFiles } from '../host/support/svc.js';

const STDIN_SOURCE = 'sources:\n  in:\n    type: stdin\n';
const CONSOLE_SINK = 'sinks:\n  out:\n    type: console\n    inputs: [in]\n    encoding: { codec: text }\n';

test('SVC_CONFIG and SVC_THREADS stand for --config and --threads', async () => {
  const dir = writeFiles({ 'svc.yaml': STDIN_SOURCE + CONSOLE_SINK });
  const { status, stdout, stderr } = await runSvc([], {
    env: { SVC_CONFIG: join(dir, 'svc.yaml'), SVC_THREADS: '3' },
    stdin: 'hello\n',
  });
  assert.is(stdout, 'hello\n', stderr);
  assert.match(
    logLines(stderr, dir),
    /^ INFO svc: Loading configs\. paths=<dir>\/svc\.yaml\n INFO svc: svc has started\. version=\S+ threads=3\n/,
  );
  assert.is(status, 0);
});

test('--config-dir: root files and one component per file in sources/ and sinks/', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'sources'));
  mkdirSync(join(dir, 'sinks'));
  writeFileSync(join(dir, 'sources', 'in.yaml'), 'type: stdin\n');
  writeFileSync(join(dir, 'sinks', 'out.toml'), 'type = "console"\ninputs = ["shout"]\nencoding.codec = "text"\n');
  writeFileSync(
    join(dir, 'transforms.json'),
    JSON.stringify({
      transforms: { shout: { type: 'remap', inputs: ['in'], source: '.message = upcase!(.message)' } },
    }),
  );
  const { status, stdout, stderr } = await runSvc(['--config-dir', dir], { stdin: 'hello\n' });
  assert.is(stdout, 'HELLO\n', stderr);
  assert.is(status, 0);
});

test('several --config, one of them a glob, merge into one configuration', async () => {
  const dir = writeFiles({
    'part-source.yaml': STDIN_SOURCE,
    'part-sink.yaml': CONSOLE_SINK,
    'global.toml': 'data_dir = "/tmp"\n',
  });
  const { status, stdout, stderr } = await runSvc(['-c', join(dir, 'part-*.yaml'), '-c', join(dir, 'global.toml')], {
    stdin: 'one\ntwo\n',
  });
  assert.is(stdout, 'one\ntwo\n', stderr);
  assert.match(logLines(stderr, dir), /paths=<dir>\/part-\*\.yaml,<dir>\/global\.toml\n/);
  assert.is(status, 0);
});

test('--allow-empty-config runs without components until SIGTERM, then exits 0', async () => {
  const dir = writeFiles({ 'svc.yaml': '' });
  const svc = startSvc(['--config', join(dir, 'svc.yaml'), '--allow-empty-config']);
  try {
    await svc.waitForStderr(/svc has started/);
    svc.child.kill('SIGTERM');
    const { status, stdout, stderr } = await svc.exited;
    assert.is(stdout, '');
    assert.match(
      logLines(stderr),
      / INFO svc: Signal received\. Shutting down\. signal=SIGTERM\n INFO svc: svc has stopped\.\n$/,
    );
    assert.is(status, 0);
  } finally {
    svc.child.kill('SIGKILL');
  }
});

test('without --allow-empty-config an empty configuration is an error', async () => {
  const dir = writeFiles({ 'svc.yaml': '' });
  const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')]);
  assert.is(stdout, '');
  assert.match(logLines(stderr, dir), /\nERROR svc: Configuration error: /);
  assert.is(status, 78);
});

test('--log-format json: every stderr line is a JSON object with level, target and message', async () => {
  const dir = writeFiles({ 'svc.yaml': STDIN_SOURCE + CONSOLE_SINK });
  const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml'), '--log-format', 'json'], {
    stdin: 'hello\n',
  });
  assert.is(stdout, 'hello\n');
  const records = stderr
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(
    records.map((record) => record.message),
    ['Loading configs.', 'svc has started.', 'svc has stopped.'],
  );
  for (const record of records) {
    assert.is(record.level, 'INFO');
    assert.is(record.target, 'svc');
    assert.type(record.timestamp, 'string');
  }
  assert.is(status, 0);
});

test('-q leaves out the INFO lines, errors stay', async () => {
  const dir = writeFiles({
    'svc.yaml': 'sources:\n  in:\n    type: stdin\n    decoding: { codec: json }\n' + CONSOLE_SINK,
  });
  const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml'), '-q'], {
    stdin: 'not json\n{"message":"ok"}\n',
  });
  assert.is(stdout, 'ok\n');
  assert.not.match(stderr, /INFO/);
  assert.match(logLines(stderr), /^ERROR svc::sources::stdin: Failed deserializing frame: /);
  assert.is(status, 0);
});

test('`svc run --config` is the same as `svc --config`', async () => {
  const dir = writeFiles({ 'svc.yaml': STDIN_SOURCE + CONSOLE_SINK });
  const { status, stdout, stderr } = await runSvc(['run', '--config', join(dir, 'svc.yaml')], { stdin: 'via run\n' });
  assert.is(stdout, 'via run\n', stderr);
  assert.is(status, 0);
});

test.run();
