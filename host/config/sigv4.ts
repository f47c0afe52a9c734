// The cloud's request signature, version 4 (HMAC-SHA256 over a canonical form of the request), with Node's
// crypto: no SDK package is installed, and the secrets backend and the object storage sink sign few kinds of
// request.

import { createHash, createHmac } from 'node:crypto';

export interface CloudCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignableRequest {
  method: string;
  url: URL;
  /** Every header to sign, `host` and `x-amz-date` included; names in any case. An `x-amz-content-sha256`
   * header is the payload's hash as signed (object storage wants it sent). */
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 encoding, as the signature's canonical form wants it (unreserved characters kept). */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20150830T123600Z` for a date. */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The `Authorization` header value of `request`, signed for `region` and `service` at the request's `x-amz-date`. */
export function signV4(
  request: SignableRequest,
  credentials: CloudCredentials,
  region: string,
  service: string,
): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const time = headers.find(([name]) => name === 'x-amz-date')?.[1];
  if (time === undefined) throw new Error('a signed request needs an x-amz-date header');
  const date = time.slice(0, 8);
  const signedHeaders = headers.map(([name]) => name).join(';');
  // Each path segment encoded again: services other than object storage sign the encoded path encoded once
  // more; object storage signs each segment encoded once.
  const path = request.url.pathname
    .split('/')
    .map((segment) => encodeRfc3986(service === 's3' ? decodeURIComponent(segment) : segment))
    .join('/');
  const query = [...request.url.searchParams]
    .map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)
    .sort()
    .join('&');
  const canonical = [
    request.method,
    path,
    query,
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    headers.find(([name]) => name === 'x-amz-content-sha256')?.[1] ?? sha256Hex(request.body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', time, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), service), 'aws4_request');
  const signature = hmac(key, toSign).toString('hex');
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** `headers` with those a signed request adds (`host`, `x-amz-date`, the session token) and its signature. */
export function signedHeaders(
  request: { method: string; url: URL; headers: Record<string, string>; body: string | Uint8Array },
  signer: CloudCredentials,
  region: string,
  service: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    host: request.url.host,
    ...request.headers,
    'x-amz-date': amzDate(new Date()),
    ...(signer.sessionToken ? { 'x-amz-security-token': signer.sessionToken } : {}),
  };
  headers.authorization = signV4({ ...request, headers }, signer, region, service);
  return headers;
}
