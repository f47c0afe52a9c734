// A real server from a Debian package (nats-server, redis-server, mosquitto, rabbitmq-server: .ci/run installs
// them) run for a test: started on a loopback port the test picked, ready once the port takes connections,
// stopped by its PID.
// Starts a process: tests that use it are integration tests.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** How a server is run, when not as a plain command. */
export interface ServerProcessOptions {
  /** The program, when not Debian's `/usr/{s,}bin/<name>`. */
  binary?: string;
  env?: NodeJS.ProcessEnv;
  /** Runs it in a process group of its own, stopped whole: a script that starts the server as its child. */
  group?: boolean;
  /** How long it may take to listen (default 5 s). */
  startMs?: number;
}

/** Runs Debian's `/usr/{s,}bin/<name>` (or `name` on PATH: /usr/sbin may be missing from a user's) with
 * `args`, and resolves once `port` takes connections; `stop` sends SIGTERM and waits for the exit. */
export async function startServerProcess(
  name: string,
  args: string[],
  port: number,
  { binary, env, group = false, startMs = 5000 }: ServerProcessOptions = {},
): Promise<{ stop(): Promise<void> }> {
  const program = binary ?? [`/usr/sbin/${name}`, `/usr/bin/${name}`].find((path) => existsSync(path)) ?? name;
  const child: ChildProcess = spawn(program, args, { stdio: 'ignore', env: env ?? process.env, detached: group });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null) process.kill(group ? -child.pid! : child.pid!, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + startMs;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { stop };
}
