// statsd: Vector's parser line by line (its own test cases), then the source over UDP, TCP and a Unix socket
// with the exact metrics out, bad lines counted as errors and the rest kept.

import { once } from 'node:events';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import statsd from '../../../../host/components/sources/statsd.js';
import { parseStatsdLine } from '../../../../host/components/sources/statsd/parser.js';
import { readMetric, type Metric } from '../../../../host/components/support/metric.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';
import { freePort, tempDir } from '../../support/svc.js';

const parse = (line: string) => parseStatsdLine(line, true, 'seconds');
const counter = (name: string, value: number, tags?: Metric['tags']): Metric => ({
  name,
  ...(tags && { tags }),
  kind: 'incremental',
  value: { type: 'counter', value },
});

test('counters: sample rate divides, a rate of 0 counts as 1; names sanitized unless told not to', () => {
  assert.equal(parse('foo:1|c'), counter('foo', 1));
  assert.equal(parse('bar:2|c|@0.1'), counter('bar', 20));
  assert.equal(parse('bar:2|c|@0'), counter('bar', 2));
  assert.equal(
    parse('foo/how@ever baz:1|c|#tag1,tag2:value'),
    counter('foo-however_baz', 1, { tag1: null, tag2: 'value' }),
  );
  assert.equal(
    parseStatsdLine('foo/bar@baz baz:1|c|#tag1,tag2:value', false, 'seconds'),
    counter('foo/bar@baz baz', 1, { tag1: null, tag2: 'value' }),
  );
  assert.equal(parse('foo. @& bar_$!#.baz:1|c').name, 'foo.__bar_.baz');
});

test('tags: a repeated key keeps each value once; a bare key is null, `key:` the empty string', () => {
  assert.equal(parse('foo:1|c|#tag1,tag2:valueA,tag2:valueB,tag3:value,tag3,tag4:,tag2:valueA').tags, {
    tag1: null,
    tag2: ['valueA', 'valueB'],
    tag3: ['value', null],
    tag4: '',
  });
});

test('timers, histograms and distributions are one sample with the rate as an integer; ms in seconds by default', () => {
  const distribution = (value: number, rate: number, statistic: 'histogram' | 'summary') => ({
    type: 'distribution',
    samples: [{ value, rate }],
    statistic,
  });
  assert.equal(parse('glork:320|ms|@0.1').value, distribution(0.32, 10, 'histogram'));
  assert.equal(parseStatsdLine('glork:320|ms|@0.1', true, 'milliseconds').value, distribution(320, 10, 'histogram'));
  assert.equal(parse('glork:320|h|@0.3|#region:us-west1').value, distribution(320, 3, 'histogram'));
  assert.equal(parse('glork:320|d|@0.1|#region:us-west1,production,e:'), {
    name: 'glork',
    tags: { region: 'us-west1', production: null, e: '' },
    kind: 'incremental',
    value: distribution(320, 10, 'summary'),
  });
});

test('gauges: absolute, or incremental with a sign; sets are incremental', () => {
  assert.equal(parse('gaugor:333|g'), { name: 'gaugor', kind: 'absolute', value: { type: 'gauge', value: 333 } });
  assert.equal(parse('gaugor:-4|g'), { name: 'gaugor', kind: 'incremental', value: { type: 'gauge', value: -4 } });
  assert.equal(parse('gaugor:+10|g').value, { type: 'gauge', value: 10 });
  assert.equal(parse('uniques:765|s'), {
    name: 'uniques',
    kind: 'incremental',
    value: { type: 'set', values: ['765'] },
  });
});

test("what Vector's parser rejects", () => {
  for (const line of [
    '',
    'foo',
    'foo:1',
    'foo:1|x',
    'foo:abc|c',
    'foo: 1|c',
    'foo:0x10|c',
    'foo:1|c|@',
    'foo:1|c|@-1',
    'foo:1|c|#',
    'foo:|g',
    'foo:.5|g',
  ])
    assert.throws(() => parse(line), undefined, JSON.stringify(line));
  // Rust's float syntax: exponents, `inf`, a leading `+`.
  assert.equal(parse('foo:1e3|c').value, { type: 'counter', value: 1000 });
  assert.equal(parse('foo:+inf|c').value, { type: 'counter', value: Infinity });
});

const LINES = 'req:3|c|@0.5|#env:prod\nbad line\nlatency:250|ms\n\nqueue:+2|g\nusers:alice|s';
const EXPECTED: Metric[] = [
  counter('req', 6, { env: 'prod' }),
  {
    name: 'latency',
    kind: 'incremental',
    value: { type: 'distribution', samples: [{ value: 0.25, rate: 1 }], statistic: 'histogram' },
  },
  { name: 'queue', kind: 'incremental', value: { type: 'gauge', value: 2 } },
  { name: 'users', kind: 'incremental', value: { type: 'set', values: ['alice'] } },
];

/** Runs the source, sends `LINES` with `send`, and checks the metrics out and the two bad lines counted. */
async function roundTrip(options: object, send: () => Promise<void>): Promise<void> {
  const env = testEnv('statsd');
  const run = runSource(await buildSource(statsd, options, env));
  try {
    await send();
    await run.waitFor(EXPECTED.length);
  } finally {
    run.shutdown.abort();
    await run.done;
  }
  assert.ok(run.kinds.every((kind) => kind === 'metric'));
  assert.equal(
    run.events.map((event) => readMetric(event as never)),
    EXPECTED,
  );
  // `bad line` and the empty line.
  assert.is(env.metrics.total('component_errors_total', { error_type: 'parser_failed', stage: 'processing' }), 2);
  assert.is(env.metrics.total('component_received_bytes_total'), Buffer.byteLength(LINES));
}

test('udp: the lines of a datagram', async () => {
  const port = await freePort();
  await roundTrip({ mode: 'udp', address: `127.0.0.1:${port}` }, async () => {
    const client = createSocket('udp4');
    await new Promise<void>((resolve, reject) =>
      client.send(LINES, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
    client.close();
  });
});

test('tcp: lines across writes; the last line ends with the connection', async () => {
  const port = await freePort();
  await roundTrip(
    { mode: 'tcp', address: `127.0.0.1:${port}`, permit_origin: ['127.0.0.0/8', '::1/128'] },
    async () => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(LINES.slice(0, 10));
      socket.end(LINES.slice(10));
      await once(socket, 'close');
    },
  );
});

test('tcp: a peer outside permit_origin is refused and counted; a network that is not CIDR fails the options', async () => {
  const port = await freePort();
  const env = testEnv('statsd');
  const run = runSource(
    await buildSource(statsd, { mode: 'tcp', address: `127.0.0.1:${port}`, permit_origin: ['10.0.0.0/8'] }, env),
  );
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write('refused:1|c\n');
  await once(socket, 'close');
  run.shutdown.abort();
  await run.done;
  assert.equal(run.events, []);
  assert.is(env.metrics.total('component_errors_total', { error_type: 'connection_failed', stage: 'receiving' }), 1);
  assert.not.ok(
    statsd.options.safeParse({ mode: 'tcp', address: '127.0.0.1:1', permit_origin: ['10.0.0.0/33'] }).success,
  );
  assert.not.ok(
    statsd.options.safeParse({ mode: 'tcp', address: '127.0.0.1:1', permit_origin: ['localhost'] }).success,
  );
});

test('unix: a stream socket', async () => {
  const path = join(tempDir(), 'statsd.sock');
  await roundTrip({ mode: 'unix', path }, async () => {
    const socket = connect(path);
    await once(socket, 'connect');
    socket.end(LINES);
    await once(socket, 'close');
  });
});

test.run();
