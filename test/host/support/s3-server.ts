// s3rver (an S3 server, in-process on a loopback port, its objects in a temporary directory) with the bucket
// `logs`, recording each request as it arrived and able to hold requests before it handles them. It checks the
// access key of a signed request, not the signature (support/signature.ts does).

import { rmSync } from 'node:fs';
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tempDir } from './svc.js';

/** The part of s3rver's API the tests use (the package ships no types). */
interface S3rverInstance {
  httpServer: Server;
  store: {
    listObjects(bucket: string, options: object): Promise<{ objects: Array<{ key: string }> }>;
    getObject(
      bucket: string,
      key: string,
    ): Promise<{ content: NodeJS.ReadableStream; metadata: Record<string, string> } | null>;
  };
  run(): Promise<AddressInfo>;
}
type S3rverClass = new (options: object) => S3rverInstance;
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;

export interface S3Request {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface S3Server {
  uri: string;
  /** Every request as it arrived (bodies are the objects stored). */
  requests: S3Request[];
  /** Requests wait for this before s3rver handles them. */
  gate: Promise<void>;
  hold(): () => void;
  objects(bucket?: string): Promise<Array<{ key: string; body: Buffer; metadata: Record<string, string> }>>;
  close(): Promise<void>;
}

/** s3rver with the bucket `logs`, recording requests and able to hold them. */
export async function s3Server(): Promise<S3Server> {
  const directory = tempDir();
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'logs' }],
  });
  const { port } = await server.run();
  const http = server.httpServer;
  const [handle] = http.listeners('request') as RequestListener[];
  http.removeAllListeners('request');
  const target: S3Server = {
    uri: `http://127.0.0.1:${port}`,
    requests: [],
    gate: Promise.resolve(),
    hold() {
      let release = () => {};
      target.gate = new Promise((resolve) => (release = resolve));
      return release;
    },
    async objects(bucket = 'logs') {
      const { objects } = await server.store.listObjects(bucket, {});
      return Promise.all(
        objects.map(async ({ key }) => {
          const object = (await server.store.getObject(bucket, key))!;
          const chunks: Buffer[] = [];
          for await (const chunk of object.content) chunks.push(chunk as Buffer);
          return { key, body: Buffer.concat(chunks), metadata: object.metadata };
        }),
      );
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          rmSync(directory, { recursive: true, force: true });
          resolve();
        });
      }),
  };
  http.on('request', (request, response) => {
    target.requests.push({ method: request.method!, url: request.url!, headers: request.headers });
    void target.gate.then(() => handle!(request, response));
  });
  return target;
}
