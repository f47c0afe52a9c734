import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'http_request',
  category: 'System',
  description:
    'Sends an HTTP request (method, headers, body and proxies selectable) and returns the response body; header values are redacted from errors unless `redact_headers` is false.',
  parameters: [
    { name: 'url', kinds: K.Bytes, required: true },
    { name: 'method', kinds: K.Bytes, required: false, default: 'get' },
    { name: 'headers', kinds: K.Object, required: false, default: '{  }' },
    { name: 'body', kinds: K.Bytes, required: false, default: '' },
    { name: 'http_proxy', kinds: K.Bytes, required: false },
    { name: 'https_proxy', kinds: K.Bytes, required: false },
    { name: 'redact_headers', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: BYTES,
  pure: false,
  backing: { kind: 'js', library: 'node:http' },
  examples: [
    {
      title: 'Basic HTTP request',
      source: `. = parse_json!(http_request!("https://httpbin.org/get"))

# Redact the origin ip
.origin = redact!(.origin, filters: [r'.*'], redactor: {"type": "text", "replacement": "***"})
# Delete any ids in headers
.headers = filter(object!(.headers)) -> |key, _value| { !contains(key, "id", false) }
.
`,
      mode: 'compile',
      returns:
        '{ "args": {}, "headers": { "Accept": "*/*", "Host": "httpbin.org" }, "origin": "***", "url": "https://httpbin.org/get" }',
    },
    {
      title: 'HTTP request with bearer token',
      source: 'parse_json!(http_request!("https://httpbin.org/bearer", headers: {"Authorization": "Bearer my_token"}))',
      mode: 'compile',
      returns: '{ "authenticated": true, "token": "my_token" }',
    },
    {
      title: 'HTTP PUT request',
      source: `. = parse_json!(http_request!("https://httpbin.org/put", method: "put"))

# Redact the origin ip
.origin = redact!(.origin, filters: [r'.*'], redactor: {"type": "text", "replacement": "***"})
# Delete any ids in headers
.headers = filter(object!(.headers)) -> |key, _value| { !contains(key, "id", false) }
.
`,
      mode: 'compile',
      returns:
        '{ "args": {}, "data": "", "files": {}, "form": {}, "headers": { "Accept": "*/*", "Content-Length": "0", "Host": "httpbin.org" }, "json": null, "origin": "***", "url": "https://httpbin.org/put" }',
    },
    {
      title: 'HTTP POST request with body',
      source: `. = parse_json!(http_request!("https://httpbin.org/post", method: "post", body: "{\\"data\\":{\\"hello\\":\\"world\\"}}"))

# Redact the origin ip
.origin = redact!(.origin, filters: [r'.*'], redactor: {"type": "text", "replacement": "***"})
# Delete any ids in headers
.headers = filter(object!(.headers)) -> |key, _value| { !contains(key, "id", false) }
.
`,
      mode: 'compile',
      returns:
        '{ "args": {}, "data": "{\\"data\\":{\\"hello\\":\\"world\\"}}", "files": {}, "form": {}, "headers": { "Accept": "*/*", "Content-Length": "26", "Host": "httpbin.org" }, "json": { "data": { "hello": "world" } }, "origin": "***", "url": "https://httpbin.org/post" }',
    },
  ],
});
