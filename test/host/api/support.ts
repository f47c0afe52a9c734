// A running svc with its API on a free loopback port, and GraphQL clients for it: queries over HTTP and
// subscriptions over WebSocket (graphql-ws's client, the `graphql-transport-ws` sub-protocol).

import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { freePort, startSvc, tempDir, type SvcRun } from '../support/svc.js';

/** A pipeline that runs until the instance is stopped (stdin stays open) and keeps nothing. */
export const IDLE_PIPELINE = `sources:
  in:
    type: stdin
sinks:
  out:
    type: blackhole
    inputs: [in]
`;

export interface ApiInstance {
  run: SvcRun;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** `ws://127.0.0.1:<port>/graphql` */
  ws: string;
  dir: string;
  stop(): Promise<void>;
}

/**
 * Starts svc on `pipeline` (YAML of sources, transforms and sinks) with `api` (YAML lines under `api:`)
 * added, and waits until the API listens. Stdin stays open, so a stdin source keeps the instance running.
 */
export async function startApiInstance(pipeline: string, api = '', env: NodeJS.ProcessEnv = {}): Promise<ApiInstance> {
  const port = await freePort();
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `api:\n  enabled: true\n  address: 127.0.0.1:${port}\n${api.replace(/^/gm, '  ')}\n${pipeline}`,
  );
  const run = startSvc(['--config', config], { env });
  await run.waitForStderr(/API server running/);
  return {
    run,
    base: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/graphql`,
    dir,
    async stop() {
      if (run.child.exitCode === null) run.child.kill('SIGTERM');
      await run.exited;
    },
  };
}

export interface GraphQLResponse {
  status: number;
  body: { data?: any; errors?: Array<{ message: string }> };
}

/** POSTs a query to `<base>/graphql`. */
export async function query(base: string, text: string, variables?: Record<string, unknown>): Promise<GraphQLResponse> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, variables }),
  });
  return { status: response.status, body: (await response.json()) as GraphQLResponse['body'] };
}

export function wsClient(url: string): Client {
  return createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
}

/** The first `count` results of a subscription (each `{ data }` or `{ errors }`); then unsubscribes. */
export async function firstResults(
  url: string,
  text: string,
  variables: Record<string, unknown>,
  count: number,
  timeoutMs = 60000,
): Promise<any[]> {
  return resultsUntil(url, text, variables, (results) => results.length >= count, timeoutMs, `${count} results`);
}

/** A subscription's results until `enough(results)` holds; then unsubscribes. */
export async function resultsUntil(
  url: string,
  text: string,
  variables: Record<string, unknown>,
  enough: (results: any[]) => boolean,
  timeoutMs = 60000,
  expected = 'the results expected',
): Promise<any[]> {
  const client = wsClient(url);
  const results: any[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `subscription gave ${results.length} results, not ${expected}, in ${timeoutMs} ms: ${JSON.stringify(results)}`,
            ),
          ),
        timeoutMs,
      );
      const unsubscribe = client.subscribe(
        { query: text, variables },
        {
          next(result) {
            results.push(result);
            if (enough(results)) {
              clearTimeout(timer);
              unsubscribe();
              resolve();
            }
          },
          error(error) {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
          },
          complete() {
            clearTimeout(timer);
            resolve();
          },
        },
      );
    });
  } finally {
    await client.dispose();
  }
  return results;
}

/** A 2 KB query of fragments F0…F18 that each spread the next one twice, F19 selecting two fields: 2^20
 * fields once expanded. */
export function doublingFragments(): string {
  let query = 'query { ...F0 }\n';
  for (let i = 0; i < 19; i++) query += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return `${query}fragment F19 on Query { health uptime: health }\n`;
}

/** A query of `depth` fields nested in one another. */
export function nested(depth: number): string {
  return `{ ${'a { '.repeat(depth - 1)}b${' }'.repeat(depth - 1)} }`;
}
