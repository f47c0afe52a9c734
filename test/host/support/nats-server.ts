// A real nats-server (Debian's package; .ci/run installs it) with JetStream, on a loopback port the test
// picks, its store in a temporary directory; stopped by its PID. Starts a process: tests that use it are
// integration tests.

import { startServerProcess } from './server-process.js';
import { freePort, tempDir } from './svc.js';

export interface NatsServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
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
  const server = await startServerProcess(
    'nats-server',
    ['-js', '-a', '127.0.0.1', '-p', String(chosen), '-sd', store],
    chosen,
  );
  return {
    url: `nats://127.0.0.1:${chosen}`,
    port: chosen,
    storeDir: store,
    stop: () => server.stop(),
  };
}
