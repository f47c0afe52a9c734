// Issue 8, the module cache seen from `svc vrl` processes: it runs only what it verified (a damaged entry
// or another program's module under this key is a miss, recompiled and overwritten), writes atomically
// (concurrent processes), works when it cannot write, stays within its size bound (least recently used
// entries go first) and removes temporary files that writers left behind.

import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scratchDir, svc, svcEnv, SVC_MAIN } from '../cli/support/svc.js';

const scratch = scratchDir();
let dirs = 0;
/** A fresh, empty cache directory (created by svc when it writes). */
const freshCache = () => join(scratch, `cache-${++dirs}`);

/** Runs `program` on one event with the cache in `cache`; asserts it printed `expected`. */
function run(cache: string, program: string, expected: string, env: Record<string, string> = {}): void {
  const result = svc(['vrl', '-i', '-', program], { input: '{"n":20}\n', env: { SVC_CACHE_DIR: cache, ...env } });
  assert.equal(result, { status: 0, stdout: `${expected}\n`, stderr: '' }, program);
}

const entries = (cache: string) =>
  readdirSync(cache)
    .filter((name) => name.endsWith('.wasm'))
    .sort();
const only = (cache: string) => {
  const names = entries(cache);
  assert.is(names.length, 1, names.join(', '));
  return join(cache, names[0]!);
};

const A = 'to_int!(.n) + 1';
const B = 'to_int!(.n) * 2';
const C = 'to_int!(.n) - 1';
/** The entry whose module was compiled from `source` (its `svc` section holds the source). */
const entryOf = (cache: string, source: string) =>
  entries(cache).find((name) => readFileSync(join(cache, name)).includes(source));

// Compiling is what takes time here: A and B are compiled once, and copied into the caches that need them.
const seed = freshCache();
run(seed, A, '21');
run(seed, B, '40');
/** A fresh cache directory holding the seed's entries for `sources`. */
function seeded(...sources: string[]): string {
  const cache = freshCache();
  mkdirSync(cache);
  for (const source of sources) copyFileSync(join(seed, entryOf(seed, source)!), join(cache, entryOf(seed, source)!));
  return cache;
}

test('a damaged entry is a miss: the program is compiled again and the entry overwritten', () => {
  const cache = seeded(A);
  const entry = only(cache);
  const good = readFileSync(entry);
  const damages: Array<[string, Buffer]> = [
    ['truncated', good.subarray(0, good.length >> 1)],
    ['random', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff))],
    // One byte changed in the middle: the module may still be valid WebAssembly, but not the one stored.
    ['one byte', Buffer.from(good.map((byte, i) => (i === good.length >> 1 ? byte ^ 0x40 : byte)))],
  ];
  for (const [what, bytes] of damages) {
    writeFileSync(entry, bytes);
    run(cache, A, '21');
    assert.equal(readFileSync(entry), good, `${what}: the entry is rewritten`);
  }
});

test("another program's module stored under this key is a miss, not run", () => {
  const cacheA = seeded(A);
  const entryA = only(cacheA);
  const moduleA = readFileSync(entryA);
  writeFileSync(entryA, readFileSync(join(seed, entryOf(seed, B)!)));
  run(cacheA, A, '21');
  assert.equal(readFileSync(entryA), moduleA);
});

test('a cache directory that cannot be created or written costs nothing but the caching', () => {
  const parent = join(scratch, 'a-file');
  writeFileSync(parent, '');
  run(join(parent, 'cache'), A, '21');
  if (process.getuid?.() === 0) return; // root writes into read-only directories
  const readOnly = freshCache();
  mkdirSync(readOnly);
  chmodSync(readOnly, 0o555);
  run(readOnly, A, '21');
  assert.equal(entries(readOnly), []);
});

test('SVC_CACHE_MAX_BYTES bounds the directory: the least recently used entries go first', () => {
  const cache = seeded(A, B);
  // Room for two entries of about this size.
  const env = { SVC_CACHE_MAX_BYTES: String(Math.floor(statSync(join(cache, entryOf(cache, A)!)).size * 2.5)) };
  // B was used after A; then A is used again (a hit), so B is the least recently used when C arrives.
  const [entryA, entryB] = [entryOf(cache, A)!, entryOf(cache, B)!];
  utimesSync(join(cache, entryA), new Date(Date.now() - 20_000), new Date(Date.now() - 20_000));
  utimesSync(join(cache, entryB), new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
  run(cache, A, '21', env);
  run(cache, C, '19', env);
  const left = entries(cache);
  assert.equal(left, [entryA, entryOf(cache, C)!].sort());
  assert.not.ok(left.includes(entryB));
  const total = left.reduce((sum, name) => sum + statSync(join(cache, name)).size, 0);
  assert.ok(total <= Number(env.SVC_CACHE_MAX_BYTES), `${total} bytes`);
  // 0 turns the cache off.
  const off = freshCache();
  run(off, A, '21', { SVC_CACHE_MAX_BYTES: '0' });
  assert.not.ok(existsSync(off));
});

test('temporary files older than a minute are removed by the next write; newer ones stay', () => {
  const cache = freshCache();
  mkdirSync(cache);
  const old = join(cache, `${'a'.repeat(64)}.wasm.4242.0badc0de.tmp`);
  const fresh = join(cache, `${'b'.repeat(64)}.wasm.4243.0badc0df.tmp`);
  writeFileSync(old, 'left by a writer that died');
  writeFileSync(fresh, 'being written');
  const twoMinutesAgo = new Date(Date.now() - 120_000);
  utimesSync(old, twoMinutesAgo, twoMinutesAgo);
  run(cache, A, '21');
  const names = readdirSync(cache);
  assert.not.ok(names.includes(old.slice(cache.length + 1)));
  assert.ok(names.includes(fresh.slice(cache.length + 1)));
});

test('processes compiling the same program at once all run it; one whole entry, no temporary files', async () => {
  const cache = freshCache();
  const runs = Array.from(
    { length: 4 },
    () =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [SVC_MAIN, 'vrl', A], {
          env: svcEnv({ SVC_CACHE_DIR: cache }),
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const hang = setTimeout(() => child.kill('SIGKILL'), 120_000);
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.on('close', (status) => {
          clearTimeout(hang);
          resolve({ status, stdout });
        });
      }),
  );
  for (const result of await Promise.all(runs)) assert.equal(result, { status: 0, stdout: '1\n' });
  assert.is(readdirSync(cache).length, 1);
  run(cache, A, '21');
});

test.run();
