// A real InfluxDB 1.x (Debian's `influxdb` package: /usr/bin/influxd; .ci/run installs it) on loopback ports the
// test picks, its meta, data and WAL in a temporary directory, every listener but HTTP off; stopped by its PID.
// Starts a process: tests that use it are integration tests.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess } from './server-process.js';
import { freePort, tempDir } from './svc.js';

export interface InfluxDbServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Runs an InfluxQL statement through `/query` (epoch ns) and returns its JSON answer. */
  query(statement: string, database?: string): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startInfluxDbServer(): Promise<InfluxDbServer> {
  const dir = tempDir();
  const [port, rpcPort] = [await freePort(), await freePort()];
  const config = join(dir, 'influxdb.conf');
  writeFileSync(
    config,
    [
      'reporting-disabled = true',
      `bind-address = "127.0.0.1:${rpcPort}"`,
      '[meta]',
      `dir = "${join(dir, 'meta')}"`,
      '[data]',
      `dir = "${join(dir, 'data')}"`,
      `wal-dir = "${join(dir, 'wal')}"`,
      'query-log-enabled = false',
      '[http]',
      'enabled = true',
      `bind-address = "127.0.0.1:${port}"`,
      'log-enabled = false',
      '[monitor]',
      'store-enabled = false',
      '[subscriber]',
      'enabled = false',
      '[continuous_queries]',
      'enabled = false',
      '',
    ].join('\n'),
  );
  const server = await startServerProcess('influxd', ['-config', config], port);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async query(statement, database) {
      const params = new URLSearchParams({ q: statement, epoch: 'ns', ...(database ? { db: database } : {}) });
      const response = await fetch(`${url}/query`, { method: 'POST', body: params });
      return response.json();
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
