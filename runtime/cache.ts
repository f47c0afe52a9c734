// On-disk cache of compiled modules, keyed by what determines the module's bytes, bounded in size (least
// recently used entries go first). A hit must start fast: this module imports only Node built-ins (never
// the parser or binaryen). The cache is an optimization, so a failure to read or write it is never an
// error, and a damaged entry is a miss.

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

export interface CacheKeyParts {
  source: string;
  options: object;
  compilerVersion: string;
  /** `buildId()`: the stdlib and compiler code that produced the module. */
  build: string;
}

/** sha256 (hex) of the parts; options are keyed independently of their property order. */
export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256').update(canonical(parts)).digest('hex');
}

function canonical(parts: CacheKeyParts): string {
  return JSON.stringify([parts.source, sortKeys(parts.options), parts.compilerVersion, parts.build]);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

/**
 * The cache directory: `$SVC_CACHE_DIR` if set, else the user cache directory of the platform
 * (`$XDG_CACHE_HOME/svc` or `~/.cache/svc`, `~/Library/Caches/svc` on macOS, `%LOCALAPPDATA%\svc\cache`
 * on Windows). Never relative to the working directory.
 */
export function cacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const path = platform === 'win32' ? win32 : posix;
  if (env.SVC_CACHE_DIR) return path.resolve(env.SVC_CACHE_DIR);
  switch (platform) {
    case 'win32':
      return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'svc', 'cache');
    case 'darwin':
      return path.join(home, 'Library', 'Caches', 'svc');
    default: {
      // The XDG spec says to ignore a relative XDG_CACHE_HOME.
      const xdg = env.XDG_CACHE_HOME;
      return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'svc');
    }
  }
}

function entryPath(key: string): string {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not a cache key: ${JSON.stringify(key)}`);
  return join(cacheDir(), `${key}.wasm`);
}

/** Default bound of the cache directory's size; `$SVC_CACHE_MAX_BYTES` sets another (0: no caching). */
export const DEFAULT_CACHE_MAX_BYTES = 256 * 2 ** 20;

/** `$SVC_CACHE_MAX_BYTES` if it is a whole number, else the default. */
export function cacheMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.SVC_CACHE_MAX_BYTES;
  return value && /^[0-9]+$/.test(value) ? Number(value) : DEFAULT_CACHE_MAX_BYTES;
}

/** Temporary files of writes older than this are leftovers of a process that died while writing. */
const TEMPORARY_MAX_AGE_MS = 60_000;

/**
 * Each entry ends with a custom section holding the sha256 of the bytes before it, so the file stays a
 * valid module and a damaged one is told apart from the module it held: section id 0, size, name, digest.
 */
const DIGEST_NAME = 'svc.digest';
const DIGEST_TRAILER = Buffer.from([0, 1 + DIGEST_NAME.length + 32, DIGEST_NAME.length, ...Buffer.from(DIGEST_NAME)]);
const TRAILER_BYTES = DIGEST_TRAILER.length + 32;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/**
 * The cached module bytes for `key`, or undefined (none, or a damaged entry). A hit marks the entry as
 * recently used (its modification time), for the eviction of `writeCached`.
 */
export function readCached(key: string): Uint8Array | undefined {
  const path = entryPath(key);
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  if (file.length < TRAILER_BYTES) return undefined;
  const body = file.subarray(0, file.length - TRAILER_BYTES);
  const trailer = file.subarray(body.length);
  if (!trailer.subarray(0, DIGEST_TRAILER.length).equals(DIGEST_TRAILER)) return undefined;
  if (!trailer.subarray(DIGEST_TRAILER.length).equals(sha256(body))) return undefined;
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // A read-only cache still serves hits.
  }
  return body;
}

/**
 * Stores module bytes under `key`, replacing what was there: written to a temporary file in the cache
 * directory, then renamed, so readers (other processes too) never see a part. Then keeps the directory
 * within `cacheMaxBytes()`. Failures (a read-only or uncreatable directory) leave the cache as it was.
 */
export function writeCached(key: string, bytes: Uint8Array): void {
  const path = entryPath(key);
  const maxBytes = cacheMaxBytes();
  if (maxBytes === 0) return;
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(cacheDir(), { recursive: true });
    writeFileSync(temporary, Buffer.concat([bytes, DIGEST_TRAILER, sha256(bytes)]));
    renameSync(temporary, path);
  } catch {
    removeQuietly(temporary);
    return;
  }
  prune(cacheDir(), maxBytes, path);
}

/**
 * Removes temporary files older than a minute, then the least recently used entries until the entries
 * take at most `maxBytes` (`keep`, the one just written, goes last).
 */
function prune(dir: string, maxBytes: number, keep: string): void {
  const entries: Array<{ path: string; size: number; used: number }> = [];
  let total = 0;
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (Date.now() - stats.mtimeMs > TEMPORARY_MAX_AGE_MS) removeQuietly(path);
      } else if (name.endsWith('.wasm')) {
        entries.push({ path, size: stats.size, used: path === keep ? Infinity : stats.mtimeMs });
        total += stats.size;
      }
    }
  } catch {
    return;
  }
  entries.sort((a, b) => a.used - b.used);
  for (const entry of entries) {
    if (total <= maxBytes) break;
    removeQuietly(entry.path);
    total -= entry.size;
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Best effort, like every write to the cache.
  }
}

/** Whether a module recorded as compiled from `recorded` (its `svc` section) is the one for `parts`. */
export function sameKeyParts(recorded: CacheKeyParts, parts: CacheKeyParts): boolean {
  return canonical(recorded) === canonical(parts);
}

let buildDigest: string | undefined;

/** dist/build-id (written by the build: sha256 of the stdlib and the compiler's code), read once per process. */
export function buildId(): string {
  buildDigest ??= readFileSync(new URL('../build-id', import.meta.url), 'utf8').trim();
  return buildDigest;
}

let packageVersion: string | undefined;

/** The version in package.json, read once per process. */
export function compilerVersion(): string {
  packageVersion ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return packageVersion;
}
