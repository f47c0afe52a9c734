// A real Prometheus (Debian's package; .ci/run installs it) on a loopback port the test picks, its TSDB and
// configuration in a temporary directory, with the remote write receiver on; stopped by its PID. Starts a
// process: tests that use it are integration tests.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { startServerProcess } from './server-process.js';
import { freePort, tempDir } from './svc.js';

type QueryResult = Array<{ labels: Record<string, string>; value: number }>;

export interface PrometheusServer {
  url: string;
  /** The values of an instant PromQL query's series, as `{labels, value}` (its labels without `__name__`). */
  query(promql: string): Promise<QueryResult>;
  /** `query` again until it finds a series (Prometheus scrapes and ingests on its own time). */
  queryUntilFound(promql: string): Promise<QueryResult>;
  stop(): Promise<void>;
}

/** Starts Prometheus, scraping `targets` (host:port) every second when given. */
export async function startPrometheus(targets: string[] = []): Promise<PrometheusServer> {
  const dir = tempDir();
  const port = await freePort();
  const scrape =
    targets.length === 0
      ? ''
      : `scrape_configs:\n  - job_name: svc\n    scrape_interval: 1s\n    static_configs:\n      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]\n`;
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n${scrape}`);
  const server = await startServerProcess(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
    ],
    port,
  );
  const url = `http://127.0.0.1:${port}`;
  const query = async (promql: string): Promise<QueryResult> => {
    const response = await request(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    // 503 while it starts up.
    if (response.statusCode !== 200) {
      await response.body.dump();
      return [];
    }
    const body = (await response.body.json()) as {
      data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
    };
    return (body.data?.result ?? []).map(({ metric, value }) => {
      const { __name__: _name, ...labels } = metric;
      return { labels, value: Number(value[1]) };
    });
  };
  return {
    url,
    query,
    async queryUntilFound(promql) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const result = await query(promql);
        if (result.length > 0) return result;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${promql} in Prometheus`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => server.stop(),
  };
}
