// A local HTTP server standing in for a sink's destination (Loki, Elasticsearch, Splunk HEC): it records
// each request and answers as the test's handler says, possibly later (a held response).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RetryTimer } from '../../../host/components/support/retry.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Answer {
  status: number;
  body?: string | object;
}

export interface HttpTarget {
  /** `http://127.0.0.1:<port>` */
  uri: string;
  requests: Received[];
  close(): Promise<void>;
}

/** A server answering each request with what `answer` returns for it (200 and no body by default). */
export async function httpTarget(
  answer: (request: Received, index: number) => Answer | Promise<Answer> = () => ({ status: 200 }),
): Promise<HttpTarget> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      const index = requests.push(received) - 1;
      const { status, body } = await answer(received, index);
      res.statusCode = status;
      if (body === undefined) return res.end();
      res.setHeader('content-type', typeof body === 'string' ? 'text/plain' : 'application/json');
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A retry timer that records each wait and ends it at once. */
export function instantTimer() {
  const waits: number[] = [];
  const timer: RetryTimer = { sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
  return { timer, waits };
}
