import { test } from 'uvu';
import * as assert from 'uvu/assert';
import exec from '../../../../host/components/sources/exec.js';
import { pause, startSource } from '../../support/source-harness.js';
import { sourceMetadata } from '../../support/sources.js';

const node = process.execPath;

test('scheduled: the command runs again after the interval; events carry command, pid, data_stream', async () => {
  const command = [node, '-e', 'console.log("tick"); console.error("warn")'];
  const source = await startSource(exec, { mode: 'scheduled', command, scheduled: { exec_interval_secs: 1 } });
  await source.waitFor(4, 5000);
  await source.stop();
  const stdout = source.events.filter((event) => event.data_stream === 'stdout');
  assert.ok(stdout.length >= 2);
  assert.ok(source.events.some((event) => event.data_stream === 'stderr' && event.message === 'warn'));
  const first = stdout[0]!;
  assert.is(first.message, 'tick');
  assert.equal(first.command, command);
  assert.is(typeof first.pid, 'bigint');
  assert.is.not(first.pid, stdout[1]!.pid, 'a new process each run');
  assert.is(first.source_type, 'exec');
  assert.is(first.host, 'test-host');
});

test('log_namespace: the line is the event; command, pid, data_stream and host are in %exec', async () => {
  const command = [node, '-e', 'console.log("tick"); console.error("warn")'];
  const source = await startSource(exec, {
    mode: 'streaming',
    command,
    streaming: { respawn_on_exit: false },
    log_namespace: true,
  });
  await source.done;
  assert.equal(source.events.slice().sort(), ['tick', 'warn']);
  const own = source.metadata.map((metadata) => sourceMetadata(metadata, 'exec'));
  const stdout = own[source.events.indexOf('tick' as never)]!;
  assert.equal(Object.keys(stdout).sort(), ['command', 'data_stream', 'host', 'pid']);
  assert.equal(stdout.command, command);
  assert.is(stdout.data_stream, 'stdout');
  assert.is(typeof stdout.pid, 'bigint');
  assert.is(stdout.host, 'test-host');
  assert.is(own[source.events.indexOf('warn' as never)]!.data_stream, 'stderr');
});

test('streaming: lines arrive as the command writes them, and it is respawned when it exits', async () => {
  const script = 'process.stdout.write("a\\nb"); setTimeout(() => process.stdout.write("c\\n"), 50)';
  const source = await startSource(exec, {
    mode: 'streaming',
    command: [node, '-e', script],
    streaming: { respawn_interval_secs: 0 },
  });
  await source.waitFor(4);
  await source.stop();
  assert.equal(
    source.events.slice(0, 4).map((event) => event.message),
    ['a', 'bc', 'a', 'bc'],
  );
});

test('streaming without respawn ends with the command; stderr excluded; the rest after the last newline is an event', async () => {
  const source = await startSource(exec, {
    mode: 'streaming',
    command: [node, '-e', 'console.error("hidden"); process.stdout.write("x\\ny")'],
    streaming: { respawn_on_exit: false },
    include_stderr: false,
  });
  await source.done;
  assert.equal(
    source.events.map((event) => event.message),
    ['x', 'y'],
  );
});

test('a 10 MB line is delivered intact, and the line after it', async () => {
  const script = 'process.stdout.write("x".repeat(10 * 1024 * 1024) + "\\nafter\\n")';
  const source = await startSource(exec, {
    mode: 'streaming',
    command: [node, '-e', script],
    streaming: { respawn_on_exit: false },
    maximum_buffer_size_bytes: 16 * 1024 * 1024,
  });
  await source.done;
  assert.equal(
    source.events.map((event) => String(event.message).length),
    [10 * 1024 * 1024, 5],
  );
  assert.ok(/^x+$/.test(String(source.events[0]!.message)));
});

test('an unfinished line past maximum_buffer_size_bytes is an event of its own', async () => {
  const source = await startSource(exec, {
    mode: 'streaming',
    command: [node, '-e', 'process.stdout.write("y".repeat(5000) + "\\nz")'],
    streaming: { respawn_on_exit: false },
    maximum_buffer_size_bytes: 1000,
  });
  await source.done;
  assert.equal(
    source.events.map((event) => String(event.message).length),
    [5000, 1],
  );
});

test('json decoding through the shared decoding options', async () => {
  const source = await startSource(exec, {
    mode: 'streaming',
    command: [node, '-e', 'console.log(JSON.stringify({ a: 1 }))'],
    streaming: { respawn_on_exit: false },
    decoding: { codec: 'json' },
  });
  await source.done;
  assert.is(source.events[0]!.a, 1n);
  assert.is(source.events[0]!.source_type, 'exec');
});

test('a missing binary is a counted, logged error, retried on schedule; shutdown ends the source', async () => {
  const source = await startSource(exec, {
    mode: 'streaming',
    command: ['/nonexistent/svc-no-such-binary'],
    streaming: { respawn_interval_secs: 0 },
  });
  await pause(200);
  await source.stop();
  assert.ok(source.metrics.total('component_errors_total', { error_type: 'command_failed', stage: 'receiving' }) >= 2);
  assert.ok(source.logs.some((record) => record.level === 'error' && record.message.includes('ENOENT')));
  assert.is(source.events.length, 0);
});

test('shutdown stops a long-running command (SIGTERM) and sends what it wrote', async () => {
  const source = await startSource(exec, {
    mode: 'streaming',
    command: [node, '-e', 'console.log("up"); setInterval(() => {}, 1000)'],
  });
  await source.waitFor(1);
  await source.stop();
  assert.equal(
    source.events.map((event) => event.message),
    ['up'],
  );
});

test.run();
