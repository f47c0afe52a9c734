// A real nats-server (Debian's package; .ci/run installs it) with JetStream, on a loopback port the test
// picks, its store in a temporary directory; stopped by its PID. Starts a process: tests that use it are
// integration tests.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort, tempDir } from './svc.js';

export interface NatsServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The server binary: on PATH, or where Debian puts it (/usr/sbin may be missing from a user's PATH). */
function natsServerBinary(): string {
  return existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';
}

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

/** Starts a server; `port` and `storeDir` reuse a previous one's, to restart it with its streams. */
export async function startNatsServer({
  port,
  storeDir,
}: {
  port?: number;
  storeDir?: string;
} = {}): Promise<NatsServer & { storeDir: string }> {
  const chosen = port ?? (await freePort());
  const store = storeDir ?? tempDir();
  const child: ChildProcess = spawn(
    natsServerBinary(),
    ['-js', '-a', '127.0.0.1', '-p', String(chosen), '-sd', store],
    { stdio: 'ignore' },
  );
  const exited = once(child, 'exit');
  for (let attempt = 0; !(await listening(chosen)); attempt++) {
    if (child.exitCode !== null || attempt > 200) throw new Error(`nats-server did not start on port ${chosen}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `nats://127.0.0.1:${chosen}`,
    port: chosen,
    storeDir: store,
    async stop() {
      if (child.exitCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
