// A real mosquitto broker (Debian's package; .ci/run installs it) on a loopback port the test picks, with a
// small configuration file written here; stopped by its PID. Starts a process: tests that use it are
// integration tests.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess } from './server-process.js';
import { freePort, tempDir } from './svc.js';

export interface Mosquitto {
  port: number;
  /** Where it keeps its configuration and its persisted sessions. */
  dir: string;
  /** Stops the broker (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts a broker; `port` and `dir` reuse a previous one's, to restart it with its sessions (saved when it
 * stopped); `settings`: more configuration lines. */
export async function startMosquitto({
  port,
  dir,
  settings = [],
}: {
  port?: number;
  dir?: string;
  settings?: string[];
} = {}): Promise<Mosquitto> {
  const chosen = port ?? (await freePort());
  const where = dir ?? tempDir();
  const config = join(where, 'mosquitto.conf');
  writeFileSync(
    config,
    `listener ${chosen} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location ${where}/\n${settings.map((line) => `${line}\n`).join('')}`,
  );
  const broker = await startServerProcess('mosquitto', ['-c', config], chosen);
  return {
    port: chosen,
    dir: where,
    stop: () => broker.stop(),
  };
}
