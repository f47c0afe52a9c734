// HTTP(S) requests of `http_request`, run in the I/O worker: Node's http/https clients, through an HTTP
// proxy when one is given (absolute-form requests for http, a CONNECT tunnel for https).

import { request as httpRequestRaw, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequestRaw } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import type { IoRequest } from '../blocking-io.js';

/** Largest response body read (larger ones fail rather than exhaust memory). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

type HttpRequest = Extract<IoRequest, { op: 'http' }>;

/** The response body, whatever the status (as VRL returns it). */
export async function httpRequest(request: HttpRequest): Promise<Uint8Array> {
  const url = new URL(request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported URL scheme: ${url.protocol}`);
  const secure = url.protocol === 'https:';
  const proxy = secure ? request.httpsProxy : request.httpProxy;
  const options: RequestOptions = { method: request.method.toUpperCase(), headers: request.headers };
  let response: Promise<IncomingMessage>;
  if (proxy === undefined) {
    response = send(secure, url, options, request.body);
  } else if (!secure) {
    const proxyUrl = new URL(proxy);
    response = send(
      false,
      proxyUrl,
      { ...options, path: url.href, headers: { host: url.host, ...request.headers } },
      request.body,
    );
  } else {
    const socket = await tunnel(new URL(proxy), url);
    response = send(true, url, { ...options, createConnection: () => socket } as RequestOptions, request.body);
  }
  return readBody(await response);
}

function send(secure: boolean, url: URL, options: RequestOptions, body: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequestRaw : httpRequestRaw)(url, options, resolve);
    req.on('error', reject);
    req.end(body === '' ? undefined : body);
  });
}

/** A TLS socket to `target` through the proxy's CONNECT. */
function tunnel(proxy: URL, target: URL): Promise<ReturnType<typeof tlsConnect>> {
  const authority = `${target.hostname}:${target.port || 443}`;
  return new Promise((resolve, reject) => {
    const req = httpRequestRaw(proxy, { method: 'CONNECT', path: authority, headers: { host: authority } });
    req.on('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(new Error(`proxy refused the tunnel: ${response.statusCode}`));
        return;
      }
      resolve(tlsConnect({ socket, servername: target.hostname }));
    });
    req.on('error', reject);
    req.end();
  });
}

function readBody(response: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        response.destroy();
        reject(new Error(`response body larger than ${MAX_RESPONSE_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    response.on('error', reject);
  });
}
