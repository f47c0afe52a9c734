// `svc tap` against a live instance: exactly the events the pipeline passes, each format with and without
// --meta, notifications on stderr (none with -q), --duration-ms, exit statuses (64 bad URL, 69 unreachable
// or lost with -n), and reconnection when the instance restarts on the same port.

import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApiInstance, type ApiInstance } from '../host/api/support.js';
import { freePort, runSvc, startSvc, waitFor, type SvcRun } from '../host/support/svc.js';

const PIPELINE = `sources:
  in:
    type: stdin
transforms:
  up:
    type: remap
    inputs: [in]
    source: |
      .message = upcase!(.message)
      .n = 1
      .tags = ["a", "b c"]
      del(.timestamp)
      del(.host)
sinks:
  out:
    type: console
    inputs: [up]
    encoding:
      codec: json
`;

let api: ApiInstance;
let url: string;
test.before(async () => {
  api = await startApiInstance(PIPELINE);
  url = `${api.base}/graphql`;
});
test.after(async () => {
  await api.stop();
});

/** Starts `svc tap` and waits until its patterns matched (its subscription is attached). */
async function startTap(args: string[]): Promise<SvcRun> {
  const tap = startSvc(['tap', '--url', url, ...args]);
  await tap.waitForStderr(/successfully matched/);
  return tap;
}

async function stop(run: SvcRun): Promise<void> {
  if (run.child.exitCode === null) run.child.kill('SIGTERM');
  await run.exited;
}

test('prints exactly the events passing the outputs and inputs tapped', async () => {
  const outputs = await startTap(['--outputs-of', 'in,up', '-i', '100']);
  const inputs = await startTap(['--inputs-of', 'o*', '-i', '100']);
  try {
    assert.match(
      outputs.stderr(),
      /^\[tap\] Pattern 'in' successfully matched\.\n\[tap\] Pattern 'up' successfully matched\.\n/,
    );
    const lines = ['first', 'second', 'third'];
    api.run.child.stdin!.write(lines.map((line) => `${line}\n`).join(''));
    const printed = await api.run.waitForLines(lines.length);
    // The inputs of the sink are the outputs of `up`: the events the sink printed.
    assert.equal(await inputs.waitForLines(lines.length), printed);
    const tapped = (await outputs.waitForLines(2 * lines.length)).map((line) => JSON.parse(line).message);
    assert.equal(
      tapped.filter((message) => message === message.toLowerCase()),
      lines,
    );
    assert.equal(
      tapped.filter((message) => message === message.toUpperCase()),
      lines.map((line) => line.toUpperCase()),
    );
  } finally {
    await stop(outputs);
    await stop(inputs);
  }
});

test('--format json, yaml and logfmt, with and without --meta', async () => {
  const formats: Array<[string[], string]> = [
    [['-f', 'json'], '{"message":"HELLO","n":1,"source_type":"stdin","tags":["a","b c"]}\n'],
    [
      ['-f', 'json', '-m'],
      '{"component_id":"up","component_kind":"transform","component_type":"remap","event":{"message":"HELLO","n":1,"source_type":"stdin","tags":["a","b c"]}}\n',
    ],
    [['--format', 'yaml'], 'message: HELLO\nn: 1\nsource_type: stdin\ntags:\n- a\n- b c\n\n'],
    [
      ['-f', 'yaml', '--meta'],
      'event:\n  message: HELLO\n  n: 1\n  source_type: stdin\n  tags:\n  - a\n  - b c\ncomponent_id: up\ncomponent_kind: transform\ncomponent_type: remap\n\n',
    ],
    [['-f', 'logfmt'], 'message=HELLO n=1 source_type=stdin tags.0=a tags.1="b c"\n'],
    [
      ['-f', 'logfmt', '-m'],
      'component_id=up component_kind=transform component_type=remap message=HELLO n=1 source_type=stdin tags.0=a tags.1="b c"\n',
    ],
  ];
  const taps = await Promise.all(formats.map(([args]) => startTap(['up', '-i', '50', ...args])));
  try {
    api.run.child.stdin!.write('hello\n');
    for (const [i, tap] of taps.entries()) {
      const [args, expected] = formats[i]!;
      await waitFor(
        () => tap.stdout().length >= expected.length,
        () => `${args.join(' ')}: ${tap.stdout()}`,
      );
      assert.is(tap.stdout(), expected, args.join(' '));
    }
  } finally {
    await Promise.all(taps.map(stop));
  }
});

test('--quiet prints no notifications; --duration-ms, --duration_ms and -d end it with status 0', async () => {
  for (const duration of [
    ['--duration-ms', '1000'],
    ['--duration_ms', '1000'],
    ['-d', '1000'],
  ]) {
    const { status, stderr } = await runSvc(['tap', '--url', url, '-q', ...duration]);
    assert.is(status, 0, duration[0]);
    assert.is(stderr, '', duration[0]);
  }
  // The notifications come once the subscription is attached, after any fixed duration on a busy machine:
  // wait for the last one, then end the tap as Ctrl-C does.
  const tap = startSvc(['tap', '--url', url, 'nope', '--inputs-of', 'in']);
  await tap.waitForStderr(/Warning: source inputs cannot be tapped.*\n/);
  tap.child.kill('SIGINT');
  const { status, stderr } = await tap.exited;
  assert.is(status, 0);
  assert.is(
    stderr,
    "[tap] Pattern 'nope' failed to match: will retry on configuration reload.\n" +
      "[tap] Pattern 'in' failed to match: will retry on configuration reload.\n" +
      `[tap] Warning: source inputs cannot be tapped. Input pattern 'in' matches sources ["in"]\n`,
  );
});

test('a bad URL or option is a usage error (64); an API that cannot be reached is 69', async () => {
  for (const [args, message] of [
    [['--url', 'not a url'], "svc: invalid --url 'not a url': not a URL\n"],
    [
      ['--url', 'ftp://127.0.0.1/graphql'],
      "svc: invalid --url 'ftp://127.0.0.1/graphql': expected an http:// or https:// URL\n",
    ],
    [['--format', 'xml'], "svc: invalid --format 'xml': expected one of json, logfmt, yaml\n"],
    [['--limit', '0'], "svc: invalid --limit '0': expected an integer of at least 1\n"],
  ] as const) {
    const { status, stderr } = await runSvc(['tap', ...args], { env: { RUST_BACKTRACE: '0' } });
    assert.is(status, 64, args.join(' '));
    assert.is(stderr, message);
  }
  const port = await freePort();
  const dead = `http://127.0.0.1:${port}/graphql`;
  for (const args of [['-n'], []]) {
    const { status, stderr } = await runSvc(['tap', '--url', dead, ...args], { env: { RUST_BACKTRACE: '0' } });
    assert.is(status, 69);
    assert.is(
      stderr,
      `svc: the API at ${dead} is not reachable: connect ECONNREFUSED 127.0.0.1:${port} (is api.enabled true in the instance's configuration?)\n`,
    );
  }
});

test('reconnects when the instance restarts on the same port; with -n, a lost connection is 69', async () => {
  const instance = await startApiInstance(PIPELINE);
  let restarted: SvcRun | undefined;
  const tap = startSvc(['tap', '--url', `${instance.base}/graphql`, '-i', '50', 'up']);
  const once = ['-n', '--no-reconnect'].map((flag) =>
    startSvc(['tap', '--url', `${instance.base}/graphql`, flag, 'up'], { env: { RUST_BACKTRACE: '0' } }),
  );
  try {
    await tap.waitForStderr(/successfully matched/);
    for (const run of once) await run.waitForStderr(/successfully matched/);
    await instance.stop();
    for (const run of once) {
      const lost = await run.exited;
      assert.is(lost.status, 69);
      assert.ok(lost.stderr.endsWith(`svc: [tap] Connection to ${instance.ws} lost.\n`), lost.stderr);
    }
    await tap.waitForStderr(/\[tap\] Connection failed\. Reconnecting in 5 seconds\.\n/);
    restarted = startSvc(['--config', join(instance.dir, 'svc.yaml')]);
    await restarted.waitForStderr(/API server running/);
    // Matched again once reconnected.
    await tap.waitForStderr(/Reconnecting in 5 seconds\.\n\[tap\] Pattern 'up' successfully matched\.\n/);
    restarted.child.stdin!.write('again\n');
    assert.equal(
      (await tap.waitForLines(1)).map((line) => JSON.parse(line).message),
      ['AGAIN'],
    );
  } finally {
    await stop(tap);
    for (const run of once) await stop(run);
    if (restarted) await stop(restarted);
  }
});

test.run();
