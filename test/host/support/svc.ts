// Runs the real `svc` executable on a configuration written to a temporary directory, for end-to-end
// tests: exit status, stdout, stderr, and a handle to signal or feed the process.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const main = join(root, 'dist/cli/main.js');

export interface SvcRun {
  child: ChildProcess;
  /** Resolves when the process exits. */
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout contains `count` lines (rejects after `timeoutMs`). */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

/** Writes `files` (name → content) into a new temporary directory; returns its path. */
export function writeFiles(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

export function startSvc(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string | Buffer } = {}): SvcRun {
  const child = spawn(process.execPath, [main, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, SVC_THREADS: process.env.SVC_THREADS ?? '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status, signal) => {
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
    async waitForLines(count, timeoutMs = 20000) {
      const deadline = Date.now() + timeoutMs;
      while (lines().length < count) {
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`waited for ${count} lines, got ${lines().length}; stderr: ${stderr}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return lines();
    },
  };
}

/** Runs svc to its end. */
export async function runSvc(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string | Buffer } = {}) {
  return startSvc(args, options).exited;
}
