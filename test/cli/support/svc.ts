// Runs the built `svc` for CLI tests, in a scratch directory, without SVC_* variables from outside.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../../bin/svc.js', import.meta.url));

/** A fresh directory for one test file's configs. */
export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-cli-test-'));
}

/** Writes `text` to `dir/name`; returns the path. */
export function writeConfig(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The environment for `svc`: this one's without SVC_* variables and RUST_BACKTRACE (which adds stacks to errors). */
export function svcEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_') && key !== 'RUST_BACKTRACE');
  return { ...Object.fromEntries(inherited), ...env };
}

/** Runs `svc args...` in `cwd` (with `input` on stdin); stdout and stderr are not terminals, so there is no color. */
export function svc(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string | Buffer } = {},
) {
  const result = spawnSync(process.execPath, [main, ...args], {
    cwd: options.cwd ?? tmpdir(),
    encoding: 'utf8',
    env: svcEnv(options.env),
    input: options.input,
    maxBuffer: 1 << 30,
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The path of the built `svc` executable (dist/bin/svc.js). */
export const SVC_MAIN = main;
