// reduce in the real `svc` executable: stdin → reduce → console, its transform worker flushing on its period
// and at shutdown.

import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startSvc, tempDir } from '../../support/svc.js';

function config(reduce: string): string {
  const path = join(tempDir(), 'svc.yaml');
  writeFileSync(
    path,
    `
sources:
  app:
    type: stdin
    decoding: { codec: json }
transforms:
  transactions:
    type: reduce
    inputs: [app]
${reduce}
sinks:
  out:
    type: console
    inputs: [transactions]
    encoding: { codec: json }
`,
  );
  return path;
}

/** The events written, without what the stdin source stamps (checked present). */
function events(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { host, timestamp, timestamp_end, source_type, ...rest } = JSON.parse(line) as Record<string, unknown>;
      assert.ok(host !== undefined && timestamp !== undefined && timestamp_end !== undefined, line);
      assert.is(source_type, 'stdin');
      return rest;
    });
}

test('a multi-line transaction is merged by group_by and ends_when; the one left open is flushed at shutdown', async () => {
  const lines = [
    { request_id: 'r1', message: 'GET /a', bytes: 10 },
    { request_id: 'r2', message: 'GET /b', bytes: 1 },
    { request_id: 'r1', message: 'java.lang.Exception: boom', bytes: 20 },
    { request_id: 'r1', message: '  at A.main(A.java:3)', bytes: 30, status: 500 },
    { request_id: 'r2', message: 'still going', bytes: 2 },
  ];
  const { status, stdout, stderr } = await startSvc(
    [
      '--config',
      config(`    group_by: [request_id]
    merge_strategies:
      message: concat_newline
      status: retain
    ends_when: exists(.status)`),
    ],
    { stdin: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n` },
  ).exited;
  assert.is(status, 0, stderr);
  assert.equal(events(stdout), [
    {
      request_id: 'r1',
      message: 'GET /a\njava.lang.Exception: boom\n  at A.main(A.java:3)',
      bytes: 60,
      status: 500,
    },
    { request_id: 'r2', message: 'GET /b\nstill going', bytes: 3 },
  ]);
});

test('a group not updated for expire_after_ms leaves without new input', async () => {
  const svc = startSvc([
    '--config',
    config(`    group_by: [request_id]
    expire_after_ms: 100
    flush_period_ms: 20`),
  ]);
  svc.child.stdin!.write(
    `${JSON.stringify({ request_id: 'r1', n: 1 })}\n${JSON.stringify({ request_id: 'r1', n: 2 })}\n`,
  );
  // Nothing else arrives: the flush timer alone lets it out.
  assert.equal(events((await svc.waitForLines(1)).join('\n')), [{ request_id: 'r1', n: 3 }]);
  svc.child.stdin!.end(`${JSON.stringify({ request_id: 'r2', n: 5 })}\n`);
  const { status, stdout, stderr } = await svc.exited;
  assert.is(status, 0, stderr);
  assert.equal(events(stdout), [
    { request_id: 'r1', n: 3 },
    { request_id: 'r2', n: 5 },
  ]);
});

test.run();
