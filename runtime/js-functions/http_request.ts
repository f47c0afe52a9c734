// http_request(url, method = "get", headers = {}, body = "", http_proxy, https_proxy, redact_headers = true):
// the response body of a request done by the instance's I/O service (blocking; see runtime/blocking-io.ts).
// Header values never appear in error messages, so `redact_headers` has nothing to hide.

import type { JsFunction } from '../imports.js';
import { IO_TIMEOUT_MS } from '../blocking-io.js';
import { booleanArg, kindName, stringArg, valueKind } from './support/args.js';

export const http_request: JsFunction = (
  [url, method, headers, body, httpProxy, httpsProxy, redactHeaders],
  context,
) => {
  booleanArg(redactHeaders!, true);
  const headerValues: Record<string, string> = {};
  if (headers !== null) {
    if (kindName(headers!) !== 'object') throw new Error(`expected object, got ${valueKind(headers!)}`);
    for (const [name, value] of Object.entries(headers as object)) headerValues[name] = stringArg(value);
  }
  const target = stringArg(url!);
  const reply = context.io.run(
    {
      op: 'http',
      url: target,
      method: method === null ? 'get' : stringArg(method!),
      headers: headerValues,
      body: body === null ? '' : stringArg(body!),
      ...(httpProxy === null ? {} : { httpProxy: stringArg(httpProxy!) }),
      ...(httpsProxy === null ? {} : { httpsProxy: stringArg(httpsProxy!) }),
    },
    IO_TIMEOUT_MS,
  );
  if (!reply.ok) throw new Error(`HTTP request to ${target} failed: ${reply.error}`);
  return reply.value;
};
