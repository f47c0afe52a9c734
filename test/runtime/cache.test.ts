import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildId,
  cacheDir,
  cacheKey,
  cacheMaxBytes,
  compilerVersion,
  DEFAULT_CACHE_MAX_BYTES,
  readCached,
  sameKeyParts,
  writeCached,
  type CacheKeyParts,
} from '../../runtime/cache.js';

const parts: CacheKeyParts = { source: '.a = 1', options: { timezone: 'UTC' }, compilerVersion: '0.1.0', build: 'ab' };
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs `body` with SVC_CACHE_DIR set to a fresh directory, removed afterwards. */
function withCacheDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cache-test-'));
  const saved = process.env.SVC_CACHE_DIR;
  process.env.SVC_CACHE_DIR = dir;
  try {
    body(dir);
  } finally {
    if (saved === undefined) delete process.env.SVC_CACHE_DIR;
    else process.env.SVC_CACHE_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}

test('cache keys are sha256 hex and change with every part', () => {
  const key = cacheKey(parts);
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.is(cacheKey({ ...parts }), key);
  const variants = [
    { ...parts, source: '.a = 2' },
    { ...parts, options: { timezone: 'Europe/Paris' } },
    { ...parts, options: {} },
    { ...parts, compilerVersion: '0.1.1' },
    { ...parts, build: 'ac' },
  ];
  const keys = new Set([key, ...variants.map(cacheKey)]);
  assert.is(keys.size, variants.length + 1);
});

test('cache keys do not depend on the order of option properties', () => {
  const a = cacheKey({ ...parts, options: { timezone: 'UTC', other: { y: 1, x: [2, { q: 1, p: 2 }] } } });
  const b = cacheKey({ ...parts, options: { other: { x: [2, { p: 2, q: 1 }], y: 1 }, timezone: 'UTC' } });
  assert.is(a, b);
});

test('parts cannot run into each other', () => {
  assert.is.not(
    cacheKey({ ...parts, source: 'ab', compilerVersion: 'c' }),
    cacheKey({ ...parts, source: 'a', compilerVersion: 'bc' }),
  );
});

test('the cache directory follows SVC_CACHE_DIR, then the platform convention', () => {
  assert.is(cacheDir({ SVC_CACHE_DIR: '/var/cache/x' }, 'linux', '/home/u'), '/var/cache/x');
  assert.is(cacheDir({ SVC_CACHE_DIR: 'rel' }, 'linux', '/home/u'), join(process.cwd(), 'rel'));
  assert.is(cacheDir({}, 'linux', '/home/u'), '/home/u/.cache/svc');
  assert.is(cacheDir({ SVC_CACHE_DIR: '' }, 'linux', '/home/u'), '/home/u/.cache/svc');
  assert.is(cacheDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', '/home/u'), '/xdg/svc');
  assert.is(cacheDir({ XDG_CACHE_HOME: 'relative' }, 'linux', '/home/u'), '/home/u/.cache/svc');
  assert.is(cacheDir({ XDG_CACHE_HOME: '/xdg' }, 'darwin', '/Users/u'), '/Users/u/Library/Caches/svc');
  assert.is(
    cacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u'),
    'C:\\Users\\u\\AppData\\Local\\svc\\cache',
  );
  assert.is(cacheDir({}, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Local\\svc\\cache');
});

test('written entries read back; missing ones are undefined', () => {
  withCacheDir((dir) => {
    const key = cacheKey(parts);
    assert.is(readCached(key), undefined);
    const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    writeCached(key, bytes);
    assert.equal(new Uint8Array(readCached(key)!), bytes);
    writeCached(key, new Uint8Array([1, 2]));
    assert.equal(new Uint8Array(readCached(key)!), new Uint8Array([1, 2]));
    assert.equal(readdirSync(dir), [`${key}.wasm`], 'no temporary files are left behind');
  });
});

test('an entry whose bytes changed on disk reads as missing', () => {
  withCacheDir((dir) => {
    const key = cacheKey(parts);
    writeCached(key, new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    const path = join(dir, `${key}.wasm`);
    const stored = readFileSync(path);
    assert.is(stored.length, 8 + 45, 'the module and its digest section');
    stored[3] ^= 1;
    writeFileSync(path, stored);
    assert.is(readCached(key), undefined);
    writeFileSync(path, stored.subarray(0, 8));
    assert.is(readCached(key), undefined);
  });
});

test('SVC_CACHE_MAX_BYTES: a whole number of bytes, else the default', () => {
  assert.is(cacheMaxBytes({ SVC_CACHE_MAX_BYTES: '1000' }), 1000);
  assert.is(cacheMaxBytes({ SVC_CACHE_MAX_BYTES: '0' }), 0);
  assert.is(cacheMaxBytes({}), DEFAULT_CACHE_MAX_BYTES);
  assert.is(cacheMaxBytes({ SVC_CACHE_MAX_BYTES: '1e6' }), DEFAULT_CACHE_MAX_BYTES);
});

test('the key parts recorded in a module match the parts it was looked up by, whatever the option order', () => {
  assert.ok(sameKeyParts({ ...parts, options: { b: 1, a: 2 } }, { ...parts, options: { a: 2, b: 1 } }));
  assert.ok(sameKeyParts({ ...parts, options: {} }, { ...parts, options: { timezone: undefined } }));
  assert.not.ok(sameKeyParts({ ...parts, source: '.b = 1' }, parts));
  assert.not.ok(sameKeyParts({ ...parts, build: '' }, parts));
});

test('the cache directory is created when missing', () => {
  withCacheDir((dir) => {
    process.env.SVC_CACHE_DIR = join(dir, 'a', 'b');
    const key = cacheKey(parts);
    writeCached(key, new Uint8Array([7]));
    assert.equal(new Uint8Array(readCached(key)!), new Uint8Array([7]));
  });
});

test('a cache directory that cannot be created is ignored', () => {
  withCacheDir((dir) => {
    writeFileSync(join(dir, 'file'), '');
    process.env.SVC_CACHE_DIR = join(dir, 'file', 'below');
    writeCached(cacheKey(parts), new Uint8Array([1]));
    assert.is(readCached(cacheKey(parts)), undefined);
  });
});

test('keys that are not sha256 hex are refused (no paths outside the cache)', () => {
  assert.throws(() => readCached('../x'), /not a cache key/);
  assert.throws(() => writeCached('ABC', new Uint8Array()), /not a cache key/);
});

test("buildId is the one the build wrote; compilerVersion is package.json's", () => {
  const expected = readFileSync(join(root, 'dist/build-id'), 'utf8').trim();
  assert.match(expected, /^[0-9a-f]{64}$/);
  assert.is(buildId(), expected);
  assert.is(compilerVersion(), JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
});

test('the cache module imports only Node built-ins (a hit loads neither ohm-js nor binaryen)', () => {
  const compiled = readFileSync(join(root, 'dist/runtime/cache.js'), 'utf8');
  const imports = [...compiled.matchAll(/\bfrom '([^']+)'|\bimport\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]);
  assert.ok(imports.length > 0);
  assert.equal(
    imports.filter((name) => !name!.startsWith('node:')),
    [],
  );
});

test.run();
