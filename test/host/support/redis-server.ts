// A real redis-server without persistence, on a loopback port the test picks (server-process.ts).

import { startServerProcess } from './server-process.js';
import { freePort } from './svc.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const server = await startServerProcess(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    port,
  );
  return { url: `redis://127.0.0.1:${port}`, port, stop: () => server.stop() };
}
