// Checks a request's signature (version 4) as its server received it: recomputed from its method, path,
// signed headers and body, so a header or path that changed on the way fails it.

import type { IncomingHttpHeaders } from 'node:http';
import * as assert from 'uvu/assert';
import { signV4 } from '../../../host/config/sigv4.js';

export function assertSigned(
  request: { method: string; url: string; headers: IncomingHttpHeaders; body?: Uint8Array },
  keys: { accessKeyId: string; secretAccessKey: string },
  region: string,
  service: string,
): void {
  const authorization = String(request.headers.authorization);
  const scope = new RegExp(
    `^AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/\\d{8}/${region}/${service}/aws4_request, `,
  );
  assert.match(authorization, scope);
  const signed = /SignedHeaders=([^,]+),/.exec(authorization)![1]!.split(';');
  assert.ok(signed.includes('host') && signed.includes('x-amz-date'), authorization);
  const headers = Object.fromEntries(signed.map((name) => [name, String(request.headers[name])]));
  const url = new URL(request.url, 'http://server');
  const expected = signV4({ method: request.method, url, headers, body: request.body ?? '' }, keys, region, service);
  assert.is(authorization, expected);
}
