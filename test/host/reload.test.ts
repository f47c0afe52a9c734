// Configuration reload end to end: SIGHUP and --watch-config on a running svc, with events streaming.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startSvc, tempDir, waitFor, type SvcRun } from './support/svc.js';
import { query, wsClient } from './api/support.js';

/** The instances a test started: one a failed test leaves running is killed after it. */
const started = new Set<SvcRun>();

function start(args: string[]): SvcRun {
  const run = startSvc(args);
  started.add(run);
  return run;
}

test.after.each(() => {
  for (const run of started) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  started.clear();
});

/** file source → remap (its program in `program.vrl`) → file sink, in `dir`. */
function pipeline(dir: string, remap = `    file: ${join(dir, 'program.vrl')}`): string {
  return `data_dir: ${join(dir, 'data')}
sources:
  in:
    type: file
    include: [${join(dir, 'in.log')}]
    read_from: beginning
transforms:
  tag:
    type: remap
    inputs: [in]
${remap}
sinks:
  out:
    type: file
    inputs: [tag]
    path: ${join(dir, 'out.log')}
    encoding:
      codec: json
`;
}

const program = (version: number) => `. = parse_json!(string!(.message))\n.v = ${version}\n`;

/** The events written to out.log so far. */
function output(dir: string): Array<{ n: number; v: number }> {
  const path = join(dir, 'out.log');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { n: number; v: number });
}

function lines(from: number, to: number): string {
  let text = '';
  for (let n = from; n < to; n++) text += `{"n":${n}}\n`;
  return text;
}

test('SIGHUP with a changed remap program while 100k events stream: nothing lost, the new program from the reload on, a broken config rejected', async () => {
  const total = 100000;
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(join(dir, 'program.vrl'), program(1));
  writeFileSync(config, pipeline(dir));
  writeFileSync(join(dir, 'in.log'), lines(0, 20000));
  const run = start(['--config', config]);
  {
    // The writer appends the rest while svc runs, in steps; past half-way it waits for the reload, so that the
    // reload lands mid-stream however fast either side goes.
    let written = 20000;
    let reloaded = false;
    const writer = (async () => {
      while (written < total) {
        if (written >= total / 2)
          await waitFor(
            () => reloaded,
            () => 'the reload',
          );
        const next = Math.min(total, written + 500);
        appendFileSync(join(dir, 'in.log'), lines(written, next));
        written = next;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await waitFor(
      () => output(dir).length >= 5000,
      () => `5000 events out; stderr: ${run.stderr()}`,
    );

    writeFileSync(join(dir, 'program.vrl'), program(2));
    run.child.kill('SIGHUP');
    await run.waitForStderr(/svc has reloaded\./);
    const writtenAtReload = written;
    reloaded = true;

    writeFileSync(config, pipeline(dir, '    source: ".v = "'));
    run.child.kill('SIGHUP');
    await run.waitForStderr(/Reload was triggered but failed\./);
    await writer;
    await waitFor(
      () => new Set(output(dir).map((event) => event.n)).size >= total,
      () => `${total} events out; stderr: ${run.stderr()}`,
    );
    assert.is(run.child.exitCode, null, 'svc still runs');
    run.child.kill('SIGTERM');
    const { status, stderr } = await run.exited;
    assert.is(status, 0, stderr);

    const events = output(dir);
    const seen = new Map<number, number>();
    for (const { n } of events) seen.set(n, (seen.get(n) ?? 0) + 1);
    const lost = Array.from({ length: total }, (_, n) => n).filter((n) => !seen.has(n));
    assert.equal(lost, [], 'no event lost');
    assert.is(events.length, total, 'no event duplicated (the source was kept)');
    const late = events.filter((event) => event.n >= writtenAtReload);
    assert.ok(late.length > 0, 'events were written after the reload');
    assert.ok(
      late.every((event) => event.v === 2),
      'the new program applies to every event written after the reload',
    );
    assert.ok(
      events.some((event) => event.v === 1),
      'the old program ran before it',
    );
    assert.match(stderr, /Configuration error: .*transforms\.tag/);
    assert.is(stderr.match(/svc has reloaded\./g)?.length, 1, 'the broken configuration was not swapped in');
    assert.not.match(stderr, /Source failed|Transform failed|Sink failed/);
  }
});

for (const method of ['recommended', 'poll'] as const) {
  test(`--watch-config (${method}): a changed remap program is reloaded without a signal`, async () => {
    const dir = tempDir();
    const config = join(dir, 'svc.yaml');
    writeFileSync(join(dir, 'program.vrl'), program(1));
    writeFileSync(config, pipeline(dir));
    writeFileSync(join(dir, 'in.log'), lines(0, 10));
    const run = start([
      '--config',
      config,
      '--watch-config',
      '--watch-config-method',
      method,
      '--watch-config-poll-interval-seconds',
      '1',
    ]);
    await waitFor(
      () => output(dir).length >= 10,
      () => `10 events out; stderr: ${run.stderr()}`,
    );
    writeFileSync(join(dir, 'program.vrl'), program(2));
    await run.waitForStderr(/svc has reloaded\./);
    appendFileSync(join(dir, 'in.log'), lines(10, 20));
    await waitFor(
      () => output(dir).length >= 20,
      () => `20 events out; stderr: ${run.stderr()}`,
    );
    run.child.kill('SIGTERM');
    const { status, stderr } = await run.exited;
    assert.is(status, 0, stderr);
    const events = output(dir);
    assert.equal(
      events.map((event) => [event.n, event.v]),
      Array.from({ length: 20 }, (_, n) => [n, n < 10 ? 1 : 2]),
    );
  });
}

test('--allow-empty-config starts without components; a reload brings them, and the API announces them', async () => {
  const port = await freePort();
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  const api = `data_dir: ${dir}\napi:\n  enabled: true\n  address: 127.0.0.1:${port}\n`;
  writeFileSync(config, api);
  const run = start(['--config', config, '--allow-empty-config']);
  await run.waitForStderr(/API server running/);
  const client = wsClient(`ws://127.0.0.1:${port}/graphql`);
  const added: string[] = [];
  const subscribed = new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: 'subscription { componentAdded { componentId } }' },
      {
        next: (result) => {
          added.push((result.data as { componentAdded: { componentId: string } }).componentAdded.componentId);
        },
        error: reject,
        complete: resolve,
      },
    );
  });
  // The subscription is registered once the server answers another request on the same client.
  await new Promise<void>((resolve, reject) =>
    client.subscribe({ query: '{ health }' }, { next: () => {}, error: reject, complete: resolve }),
  );
  writeFileSync(join(dir, 'in.log'), lines(0, 3));
  writeFileSync(
    config,
    `${api}sources:\n  in:\n    type: file\n    include: [${join(dir, 'in.log')}]\n    read_from: beginning\n` +
      `sinks:\n  out:\n    type: file\n    inputs: [in]\n    path: ${join(dir, 'out.log')}\n    encoding:\n      codec: text\n`,
  );
  run.child.kill('SIGHUP');
  await run.waitForStderr(/svc has reloaded\./);
  await waitFor(
    () => added.length >= 2,
    () => `componentAdded twice; got ${JSON.stringify(added)}`,
  );
  assert.equal(added.sort(), ['in', 'out']);
  const components = await query(`http://127.0.0.1:${port}`, '{ components { nodes { componentId } } }');
  assert.equal(
    components.body.data.components.nodes.map((node: { componentId: string }) => node.componentId),
    ['in', 'out'],
  );
  await waitFor(
    () => existsSync(join(dir, 'out.log')) && readFileSync(join(dir, 'out.log'), 'utf8').split('\n').length > 3,
    () => `3 lines out; stderr: ${run.stderr()}`,
  );
  await client.dispose();
  await subscribed.catch(() => {});
  run.child.kill('SIGTERM');
  const { status, stderr } = await run.exited;
  assert.is(status, 0, stderr);
});

test.run();
