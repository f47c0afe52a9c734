// A real mosquitto broker (Debian's package; .ci/run installs it) on a loopback port the test picks, with a
// small configuration file written here; stopped by its PID. Starts a process: tests that use it are
// integration tests.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, tempDir } from './svc.js';

export interface Mosquitto {
  port: number;
  /** Where it keeps its configuration and its persisted sessions. */
  dir: string;
  /** Stops the broker (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The broker binary: where Debian puts it (/usr/sbin may be missing from a user's PATH), or on PATH. */
function mosquittoBinary(): string {
  return existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';
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

/** Starts a broker; `port` and `dir` reuse a previous one's, to restart it with its sessions (saved when it
 * stopped). */
export async function startMosquitto({ port, dir }: { port?: number; dir?: string } = {}): Promise<Mosquitto> {
  const chosen = port ?? (await freePort());
  const where = dir ?? tempDir();
  const config = join(where, 'mosquitto.conf');
  writeFileSync(
    config,
    `listener ${chosen} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location ${where}/\n`,
  );
  const child: ChildProcess = spawn(mosquittoBinary(), ['-c', config], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  for (let attempt = 0; !(await listening(chosen)); attempt++) {
    if (child.exitCode !== null || attempt > 200) throw new Error(`mosquitto did not start on port ${chosen}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port: chosen,
    dir: where,
    async stop() {
      if (child.exitCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
