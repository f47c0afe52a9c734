// A real server from a Debian package (nats-server, redis-server, mosquitto: .ci/run installs them) run for a
// test: started on a loopback port the test picked, ready once the port takes connections, stopped by its PID.
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

/** Runs Debian's `/usr/{s,}bin/<name>` (or `name` on PATH: /usr/sbin may be missing from a user's) with
 * `args`, and resolves once `port` takes connections; `stop` sends SIGTERM and waits for the exit. */
export async function startServerProcess(
  name: string,
  args: string[],
  port: number,
): Promise<{ stop(): Promise<void> }> {
  const binary = [`/usr/sbin/${name}`, `/usr/bin/${name}`].find((path) => existsSync(path)) ?? name;
  const child: ChildProcess = spawn(binary, args, { stdio: 'ignore' });
  const exited = once(child, 'exit');
  for (let attempt = 0; !(await listening(port)); attempt++) {
    if (child.exitCode !== null || attempt > 200) throw new Error(`${name} did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    async stop() {
      if (child.exitCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
