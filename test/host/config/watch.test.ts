import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ConfigWatchOptions, type ConfigWatcher, watchConfig } from '../../../host/config/watch.js';
import { textLogHub } from '../support/log-hub.js';
import { waitFor } from '../../support/wait-for.js';

const { hub, lines: logLines } = textLogHub();

const roots: string[] = [];
const open: ConfigWatcher[] = [];

function tempDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-watch-'));
  roots.push(root);
  return root;
}

/** A watcher of `paths` recording its onChange calls. */
function watcher(method: ConfigWatchOptions['method'], paths: string[] | (() => string[])) {
  const calls: string[][] = [];
  const handle = watchConfig({
    paths: typeof paths === 'function' ? paths : () => paths,
    method,
    pollIntervalSecs: 0.05,
    delayMs: 50,
    onChange: (changed) => calls.push([...changed].sort()),
    log: hub.logger('svc::test'),
  });
  open.push(handle);
  return { calls, handle };
}

async function callCount(calls: string[][], count: number): Promise<void> {
  await waitFor(
    () => calls.length >= count,
    () => `${count} onChange calls, got ${JSON.stringify(calls)}`,
  );
}

test.after.each(() => {
  for (const handle of open.splice(0)) handle.close();
});
test.after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

for (const method of ['recommended', 'poll'] as const) {
  test(`${method}: a file changed in place`, async () => {
    const a = join(tempDir(), 'a.yaml');
    writeFileSync(a, 'a: 1\n');
    const { calls } = watcher(method, [a]);
    writeFileSync(a, 'a: 22\n');
    await callCount(calls, 1);
    assert.equal(calls[0], [a]);
  });

  test(`${method}: a file replaced by a rename over it, twice`, async () => {
    const dir = tempDir();
    const a = join(dir, 'a.yaml');
    writeFileSync(a, 'a: 1\n');
    const { calls } = watcher(method, [a]);
    writeFileSync(join(dir, '.a.yaml.tmp'), 'a: 2\n');
    renameSync(join(dir, '.a.yaml.tmp'), a);
    await callCount(calls, 1);
    writeFileSync(join(dir, '.a.yaml.tmp'), 'a: 3\n');
    renameSync(join(dir, '.a.yaml.tmp'), a);
    await callCount(calls, 2);
    assert.equal(calls, [[a], [a]]);
  });

  test(`${method}: a file in a watched directory added, changed, deleted`, async () => {
    const dir = tempDir();
    const b = join(dir, 'b.yaml');
    const { calls } = watcher(method, [dir]);
    writeFileSync(b, 'b: 1\n');
    await callCount(calls, 1);
    writeFileSync(b, 'b: 22\n');
    await callCount(calls, 2);
    unlinkSync(b);
    await callCount(calls, 3);
    assert.equal(calls, [[b], [b], [b]]);
  });

  test(`${method}: a watched directory deleted, then created again`, async () => {
    const dir = join(tempDir(), 'conf');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
    const { calls } = watcher(method, [dir]);
    rmSync(dir, { recursive: true });
    await callCount(calls, 1);
    mkdirSync(dir);
    await callCount(calls, 2);
    writeFileSync(join(dir, 'b.yaml'), 'b: 1\n');
    await callCount(calls, 3);
    assert.equal(calls, [[dir, join(dir, 'a.yaml')], [dir], [join(dir, 'b.yaml')]]);
  });

  test(`${method}: a path that does not exist yet, created`, async () => {
    const a = join(tempDir(), 'a.yaml');
    const { calls } = watcher(method, [a]);
    writeFileSync(a, 'a: 1\n');
    await callCount(calls, 1);
    assert.equal(calls, [[a]]);
  });

  test(`${method}: a sibling of a watched file changing is not a change`, async () => {
    const dir = tempDir();
    const a = join(dir, 'a.yaml');
    const sibling = join(dir, 'sibling.yaml');
    writeFileSync(a, 'a: 1\n');
    writeFileSync(sibling, 's: 1\n');
    const watched = watcher(method, [a]);
    const sentinel = watcher(method, [sibling]);
    writeFileSync(sibling, 's: 22\n');
    await callCount(sentinel.calls, 1);
    assert.is(watched.calls.length, 0);
    writeFileSync(a, 'a: 22\n');
    await callCount(watched.calls, 1);
    assert.equal(watched.calls, [[a]]);
  });

  test(`${method}: a burst of writes is one change`, async () => {
    const dir = tempDir();
    const a = join(dir, 'a.yaml');
    const later = join(dir, 'later.yaml');
    writeFileSync(a, '');
    writeFileSync(later, '');
    const { calls } = watcher(method, [a, later]);
    for (let i = 1; i <= 5; i++) writeFileSync(a, 'x'.repeat(i));
    await callCount(calls, 1);
    writeFileSync(later, 'later: 1\n');
    await waitFor(
      () => calls.some((changed) => changed.includes(later)),
      () => `a call naming ${later}, got ${JSON.stringify(calls)}`,
    );
    assert.equal(calls, [[a], [later]]);
  });

  test(`${method}: no call after close()`, async () => {
    const a = join(tempDir(), 'a.yaml');
    writeFileSync(a, 'a: 1\n');
    const closed = watcher(method, [a]);
    const sentinel = watcher(method, [a]);
    closed.handle.close();
    writeFileSync(a, 'a: 22\n');
    await callCount(sentinel.calls, 1);
    assert.equal(sentinel.calls, [[a]]);
    assert.equal(closed.calls, []);
  });

  test(`${method}: the paths are asked again after a change`, async () => {
    const a = join(tempDir(), 'a.yaml');
    const b = join(tempDir(), 'b.yaml');
    writeFileSync(a, 'a: 1\n');
    writeFileSync(b, 'b: 1\n');
    const paths = [a];
    const { calls } = watcher(method, () => paths);
    writeFileSync(b, 'b: 22\n');
    paths.push(b); // as a reload that reads `b` from now on would
    writeFileSync(a, 'a: 22\n');
    await callCount(calls, 1);
    writeFileSync(b, 'b: 333\n');
    await callCount(calls, 2);
    assert.equal(calls, [[a], [b]]);
  });
}

test('recommended: a symlink swapped over another target (a Kubernetes ConfigMap update)', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, '..v1'));
  mkdirSync(join(dir, '..v2'));
  writeFileSync(join(dir, '..v1', 'a.yaml'), 'a: 1\n');
  writeFileSync(join(dir, '..v2', 'a.yaml'), 'a: 22\n');
  symlinkSync('..v1', join(dir, '..data'));
  symlinkSync(join('..data', 'a.yaml'), join(dir, 'a.yaml'));
  const a = join(dir, 'a.yaml');
  const { calls } = watcher('recommended', [a]);
  symlinkSync('..v2', join(dir, '..data_tmp'));
  renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
  await callCount(calls, 1);
  assert.equal(calls, [[a]]);
});

test('recommended: a path whose directory does not exist is not watched, with a warning', () => {
  const missing = join(tempDir(), 'nowhere', 'a.yaml');
  watcher('recommended', [missing]);
  assert.ok(
    logLines.some((line) => line.includes(`Configuration path ${missing} is not watched`)),
    logLines.join('\n'),
  );
});

test('recommended: when fs.watch fails, the path is polled', async () => {
  const fs = createRequire(import.meta.url)('node:fs');
  const watch = fs.watch;
  fs.watch = () => {
    throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
  };
  syncBuiltinESMExports();
  try {
    const dir = tempDir();
    const a = join(dir, 'a.yaml');
    writeFileSync(a, 'a: 1\n');
    const { calls } = watcher('recommended', [a]);
    assert.ok(
      logLines.some((line) => line.includes(`Failed to watch ${dir} (ENOSPC)`)),
      logLines.join('\n'),
    );
    writeFileSync(a, 'a: 22\n');
    await callCount(calls, 1);
    assert.equal(calls, [[a]]);
  } finally {
    fs.watch = watch;
    syncBuiltinESMExports();
  }
});

test('logs the watched paths, then each change', async () => {
  const a = join(tempDir(), 'a.yaml');
  writeFileSync(a, 'a: 1\n');
  const { calls } = watcher('poll', [a]);
  writeFileSync(a, 'a: 22\n');
  await callCount(calls, 1);
  const lines = logLines.filter((line) => line.includes(a));
  assert.ok(lines.at(-2)?.includes('Watching configuration files.'), lines.join('\n'));
  assert.ok(lines.at(-1)?.includes('Configuration file changed.'), lines.join('\n'));
});

test.run();
