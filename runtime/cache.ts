// On-disk cache of compiled modules, keyed by what determines the module's bytes. A hit must start fast:
// this module imports only Node built-ins (never the parser or binaryen). The cache is an optimization,
// so a failure to read or write it is never an error.

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  const canonical = JSON.stringify([parts.source, sortKeys(parts.options), parts.compilerVersion, parts.build]);
  return createHash('sha256').update(canonical).digest('hex');
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

/** The cached module bytes for `key`, or undefined. */
export function readCached(key: string): Uint8Array | undefined {
  const path = entryPath(key);
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Stores module bytes under `key`: written to a temporary file, then renamed, so readers never see a part. */
export function writeCached(key: string, bytes: Uint8Array): void {
  const path = entryPath(key);
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(cacheDir(), { recursive: true });
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Best effort, like the write itself.
    }
  }
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
  packageVersion ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return packageVersion;
}
