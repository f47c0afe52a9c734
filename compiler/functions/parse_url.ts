import { defineFunction } from './define.js';
import { K, BYTES, objectOf, exactObject } from '../types/kind.js';
import { STRING_OR_NULL, INTEGER_OR_NULL } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_url',
  category: 'Parse',
  description:
    'Splits a URL into scheme, credentials, host, port, path, query parameters and fragment. International host names come out in punycode; `default_known_ports` fills in the port implied by the scheme.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'default_known_ports', kinds: K.Boolean, required: false, default: 'false' },
  ],
  fallible: true,
  returns: exactObject({
    fragment: STRING_OR_NULL,
    host: BYTES,
    password: BYTES,
    path: STRING_OR_NULL,
    port: INTEGER_OR_NULL,
    query: objectOf(BYTES),
    scheme: BYTES,
    username: BYTES,
  }),
  backing: { kind: 'js', library: 'node:url' },
  examples: [
    {
      title: 'Parse URL',
      source: 'parse_url!("ftp://foo:bar@example.com:4343/foobar?hello=world#123")',
      returns:
        '{ "fragment": "123", "host": "example.com", "password": "bar", "path": "/foobar", "port": 4343, "query": { "hello": "world" }, "scheme": "ftp", "username": "foo" }',
    },
    {
      title: 'Parse URL with default port',
      source: 'parse_url!("https://example.com", default_known_ports: true)',
      returns:
        '{ "fragment": null, "host": "example.com", "password": "", "path": "/", "port": 443, "query": {}, "scheme": "https", "username": "" }',
    },
  ],
});
