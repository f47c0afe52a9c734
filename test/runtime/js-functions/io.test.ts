// http_request, dns_lookup and reverse_dns through the blocking I/O worker, against servers on 127.0.0.1.
// The servers run in a worker thread of their own: this thread blocks while a request is out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Worker } from 'node:worker_threads';
import { lookupService } from 'node:dns/promises';
import type { RemapValue } from '../../../abi/values.js';
import type { JsFunction } from '../../../runtime/imports.js';
import { workerIo } from '../../../runtime/blocking-io.js';
import { http_request } from '../../../runtime/js-functions/http_request.js';
import { dns_lookup } from '../../../runtime/js-functions/dns_lookup.js';
import { reverse_dns } from '../../../runtime/js-functions/reverse_dns.js';
import { jsContext } from '../../support/js-context.js';

// An HTTP server echoing the request, a DNS server answering `example.test` A 10.1.2.3 (NXDOMAIN for
// anything else), and a UDP port that never answers.
const SERVERS = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const dgram = require('node:dgram');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.url === '/big') { res.end(Buffer.alloc(3 << 20, 0x61)); return; }
    res.statusCode = req.url === '/missing' ? 404 : 200;
    res.end(JSON.stringify({ method: req.method, url: req.url, token: req.headers['x-token'] ?? null, body }));
  });
});
const dns = dgram.createSocket('udp4');
dns.on('message', (q, from) => {
  let at = 12; const labels = [];
  while (q[at] !== 0) { labels.push(q.subarray(at + 1, at + 1 + q[at]).toString()); at += 1 + q[at]; }
  const question = q.subarray(12, at + 5);
  const found = labels.join('.') === 'example.test';
  const header = Buffer.alloc(12);
  q.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8180 | (found ? 0 : 3), 2);
  header.writeUInt16BE(1, 4); header.writeUInt16BE(found ? 1 : 0, 6);
  const answer = found ? Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4, 10, 1, 2, 3]) : Buffer.alloc(0);
  dns.send(Buffer.concat([header, question, answer]), from.port, from.address);
});
const silent = dgram.createSocket('udp4');
server.listen(0, '127.0.0.1', () => dns.bind(0, '127.0.0.1', () => silent.bind(0, '127.0.0.1', () =>
  parentPort.postMessage({ http: server.address().port, dns: dns.address().port, silent: silent.address().port }))));
`;

const servers = new Worker(SERVERS, { eval: true });
const ports = await new Promise<{ http: number; dns: number; silent: number }>((resolve) =>
  servers.once('message', resolve),
);

/** Calls `fn` as the runtime does: absent arguments are null. */
function run(fn: JsFunction, ...args: RemapValue[]): RemapValue {
  try {
    return fn([...args, ...Array<null>(8 - args.length).fill(null)], jsContext());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}
const text = (v: RemapValue) => (v instanceof Uint8Array ? Buffer.from(v).toString() : v);
const base = `http://127.0.0.1:${ports.http}`;

test('http_request: methods, headers and bodies; the body of any status', () => {
  assert.equal(JSON.parse(text(run(http_request, `${base}/get`)) as string), {
    method: 'GET',
    url: '/get',
    token: null,
    body: '',
  });
  const posted = run(http_request, `${base}/post`, 'post', { 'X-Token': 'secret' }, '{"a":"ü"}');
  assert.equal(JSON.parse(text(posted) as string), {
    method: 'POST',
    url: '/post',
    token: 'secret',
    body: '{"a":"ü"}',
  });
  assert.equal(JSON.parse(text(run(http_request, `${base}/missing`)) as string).url, '/missing');
  assert.is((run(http_request, `${base}/big`) as Uint8Array).length, 3 << 20);
});

test('http_request: failures are errors', () => {
  assert.match(
    run(http_request, 'ftp://127.0.0.1/') as string,
    /^error: HTTP request to ftp:\/\/127\.0\.0\.1\/ failed: unsupported URL scheme/,
  );
  assert.match(
    run(http_request, 'http://127.0.0.1:1/') as string,
    /^error: HTTP request to http:\/\/127\.0\.0\.1:1\/ failed: .*ECONNREFUSED/,
  );
  assert.match(run(http_request, 'not a url') as string, /^error: HTTP request to not a url failed: Invalid URL/);
  assert.is(run(http_request, `${base}/`, null, { a: 1n }), 'error: expected string, got integer');
});

test('dns_lookup: the decoded response of a server', () => {
  const server = `127.0.0.1:${ports.dns}`;
  const found = run(dns_lookup, 'example.test', null, null, { servers: [server] }) as Record<string, RemapValue>;
  assert.equal(found.answers, [
    { class: 'IN', domainName: 'example.test', rData: '10.1.2.3', recordType: 'A', recordTypeId: 1n, ttl: 3600n },
  ]);
  assert.equal(found.question, [{ class: 'IN', domainName: 'example.test', questionType: 'A', questionTypeId: 1n }]);
  assert.equal(found.rcodeName, 'NOERROR');
  assert.equal((found.header as Record<string, RemapValue>).anCount, 1n);
  assert.equal((found.header as Record<string, RemapValue>).qr, true);
  const missing = run(dns_lookup, 'nope.test', 'AAAA', 'IN', { servers: [server] }) as Record<string, RemapValue>;
  assert.equal([missing.rcodeName, missing.fullRcode, missing.answers], ['NXDOMAIN', 3n, []]);
  assert.equal((missing.question as Record<string, RemapValue>[])[0]!.questionType, 'AAAA');
});

test('dns_lookup: bad arguments and silent servers fail', () => {
  assert.is(
    run(dns_lookup, 'x', 'BOGUS', null, { servers: ['127.0.0.1'] }),
    'error: unable to perform a lookup: unknown record type: BOGUS',
  );
  const silent = run(dns_lookup, 'x', null, null, {
    servers: [`127.0.0.1:${ports.silent}`],
    timeout: 0.2,
    attempts: 1,
  });
  assert.is(silent, `error: unable to perform a lookup: no answer from 127.0.0.1:${ports.silent} within 200 ms`);
  assert.is(run(dns_lookup, 'x', null, null, { timeout: -1 }), 'error: timeout must be positive');
});

test('reverse_dns: the hosts file name of 127.0.0.1; invalid addresses', async () => {
  const expected = (await lookupService('127.0.0.1', 0)).hostname;
  assert.is(run(reverse_dns, '127.0.0.1'), expected);
  assert.is(run(reverse_dns, '300.1.1.1'), 'error: unable to parse IP address: invalid IP address syntax');
  assert.is(run(reverse_dns, ''), 'error: unable to parse IP address: invalid IP address syntax');
});

test('the blocking call gives up after its timeout and ignores the late reply', () => {
  const io = workerIo();
  const late = io.run(
    {
      op: 'dns',
      name: 'x',
      qtype: 'A',
      qclass: 'IN',
      servers: [`127.0.0.1:${ports.silent}`],
      timeoutMs: 400,
      attempts: 1,
    },
    100,
  );
  assert.equal(late, { ok: false, error: 'request timed out after 100 ms' });
  assert.equal(io.run({ op: 'reverse_dns', address: '300.0.0.1' }, 5000).ok, false);
});

test.after(async () => {
  await servers.terminate();
});
test.run();
