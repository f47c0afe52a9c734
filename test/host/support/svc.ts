// Runs the real `svc` executable on a configuration written to a temporary directory, for end-to-end
// tests: exit status, stdout, stderr, and a handle to signal or feed the process.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../support/wait-for.js';

export { waitFor };

const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** The `svc` executable the tests run. */
export const main = join(root, 'dist/bin/svc.js');

export interface SvcRun {
  child: ChildProcess;
  /** Resolves when the process exits. */
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout contains `count` lines (rejects after `timeoutMs`, 60 s by default). */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves once stderr matches `pattern` (rejects after `timeoutMs` or when the process exits first). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/** Stderr without the timestamps that start each log line, and with `dir` shown as `<dir>`. */
export function logLines(stderr: string, dir?: string): string {
  const text = stderr.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /gm, '');
  return dir === undefined ? text : text.split(dir).join('<dir>');
}

/** A port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

/** Writes `files` (relative path → content) under `root`, making their directories. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
}

/** Writes `files` (name → content) into a new temporary directory; returns its path. */
export function writeFiles(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

export function startSvc(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string | Buffer } = {},
): SvcRun {
  const child = spawn(process.execPath, [main, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, SVC_THREADS: process.env.SVC_THREADS ?? '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Set on 'close', when all output has been read (exitCode is set earlier).
  let closed = false;
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) =>
      child.on('close', (status, signal) => {
        closed = true;
        for (const wake of waiters.splice(0)) wake();
        resolve({ status, signal, stdout, stderr });
      }),
  );
  const lines = () => stdout.split('\n').filter((line) => line !== '');
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    async waitForLines(count, timeoutMs = 60000) {
      const deadline = Date.now() + timeoutMs;
      while (lines().length < count) {
        if (closed || Date.now() > deadline) {
          throw new Error(`waited for ${count} lines, got ${lines().length}; stderr: ${stderr}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return lines();
    },
    async waitForStderr(pattern, timeoutMs = 60000) {
      await waitFor(
        () => pattern.test(stderr) || closed,
        () => `stderr matching ${pattern}; stderr: ${stderr}`,
        timeoutMs,
      );
      if (!pattern.test(stderr)) throw new Error(`exited before stderr matched ${pattern}; stderr: ${stderr}`);
    },
  };
}

/** Runs svc to its end. */
export async function runSvc(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string | Buffer } = {},
) {
  return startSvc(args, options).exited;
}
