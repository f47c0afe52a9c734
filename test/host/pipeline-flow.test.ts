// Events through the real `svc` executable: every source and sink type in a full process, wildcards,
// named outputs (route, remap's `dropped`), fan-out and filter. Network on 127.0.0.1 only.

import { once } from 'node:events';
import { appendFileSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, startSvc, tempDir, waitFor } from './support/svc.js';

function readLines(path: string): string[] {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

const sorted = (lines: string[]) => [...lines].sort();

test('stdin → remap (reroute_dropped) → route → filter: one route fans out to console and a file, a file sink gets the rest and the dropped events', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  app_in:
    type: stdin
    decoding: { codec: json }
transforms:
  clean:
    type: remap
    inputs: ["app_*"]
    reroute_dropped: true
    source: |
      del(.timestamp)
      del(.host)
      if .level == "bad" { abort }
      .n = to_int!(.n)
  split:
    type: route
    inputs: [clean]
    route:
      errors: .level == "error"
      infos: .level == "info"
  keep:
    type: filter
    inputs: [split.infos]
    condition: (int(.n) ?? 0) > 1
sinks:
  errors:
    type: console
    inputs: [split.errors]
    encoding: { codec: json }
  errors_file:
    type: file
    path: ${dir}/errors.log
    inputs: [split.errors]
    encoding: { codec: json }
  rest:
    type: file
    path: ${dir}/rest.log
    inputs: [split._unmatched, keep, clean.dropped]
    encoding: { codec: json }
`,
  );
  const input =
    [
      { level: 'error', n: '1' },
      { level: 'info', n: '2' },
      { level: 'info', n: '1' },
      { level: 'debug', n: '3' },
      { level: 'bad', n: '4' },
      { level: 'info', n: 'x' },
    ]
      .map((event) => JSON.stringify(event))
      .join('\n') + '\nnot json\n';
  const { status, stdout, stderr } = await startSvc(['--config', config], { stdin: input }).exited;
  assert.is(stdout, '{"level":"error","n":1,"source_type":"stdin"}\n', stderr);
  assert.is(readFileSync(join(dir, 'errors.log'), 'utf8'), stdout);
  // The dropped event is the original one, with its stamps, and the annotation.
  const withoutStamps = (line: string) => line.replace(/"host":"[^"]*",/, '').replace(/,"timestamp":"[^"]*"/, '');
  assert.equal(sorted(readLines(join(dir, 'rest.log')).map(withoutStamps)), [
    '{"level":"bad","metadata":{"dropped":{"component_id":"clean","component_kind":"transform","component_type":"remap","message":"aborted","reason":"abort"}},"n":"4","source_type":"stdin"}',
    '{"level":"debug","n":3,"source_type":"stdin"}',
    '{"level":"info","n":2,"source_type":"stdin"}',
  ]);
  assert.match(
    stderr,
    /ERROR svc::sources::stdin: Failed deserializing frame: .* component_id=app_in error_type=parser_failed stage=processing\n/,
  );
  assert.match(
    stderr,
    /ERROR svc::transforms::remap: Mapping failed with event: function call error for "to_int" .*Invalid integer "x".* component_id=clean /,
  );
  assert.is(status, 0);
});

/** A local HTTP server collecting request bodies (JSON arrays of events). */
async function httpCollector(respond: (request: IncomingMessage) => Promise<void> = async () => {}) {
  const events: unknown[] = [];
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      await respond(request);
      if (request.method === 'POST') events.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[]));
      response.end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { events, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** A local TCP server collecting newline-delimited lines. */
async function tcpCollector() {
  const lines: string[] = [];
  const server = createServer((socket) => {
    let pending = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (pending + chunk).split('\n');
      pending = parts.pop()!;
      lines.push(...parts);
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { lines, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

test('listening sources (http_server, socket tcp and udp, syslog) into an http sink and a socket sink; SIGTERM ends it', async () => {
  const dir = tempDir();
  const [httpPort, tcpPort, udpPort, syslogPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const http = await httpCollector();
  const tcp = await tcpCollector();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  web:
    type: http_server
    address: 127.0.0.1:${httpPort}
    decoding: { codec: json }
  tcp:
    type: socket
    mode: tcp
    address: 127.0.0.1:${tcpPort}
  udp:
    type: socket
    mode: udp
    address: 127.0.0.1:${udpPort}
  syslog:
    type: syslog
    mode: tcp
    address: 127.0.0.1:${syslogPort}
transforms:
  keep:
    type: remap
    inputs: [web, tcp, udp, syslog]
    source: |
      . = { "source_type": .source_type, "message": .message, "appname": .appname }
sinks:
  to_http:
    type: http
    inputs: [keep]
    uri: http://127.0.0.1:${http.port}/ingest
    encoding: { codec: json }
    batch: { max_events: 1 }
    healthcheck: { enabled: false }
  to_tcp:
    type: socket
    mode: tcp
    address: 127.0.0.1:${tcp.port}
    inputs: [keep]
    encoding: { codec: json }
`,
  );
  const svc = startSvc(['--config', config]);
  try {
    await svc.waitForStderr(/svc has started/);
    // Listeners are bound when the service says it started.
    const posted = await fetch(`http://127.0.0.1:${httpPort}/`, { method: 'POST', body: '{"message":"over http"}' });
    assert.is(posted.status, 200);
    const tcpClient = connect(tcpPort, '127.0.0.1');
    tcpClient.end('over tcp\n');
    const udpClient = createSocket('udp4');
    udpClient.send('over udp', udpPort, '127.0.0.1', () => udpClient.close());
    const syslogClient = connect(syslogPort, '127.0.0.1');
    syslogClient.end('<13>1 2026-11-23T10:00:00Z box app 1 ID1 - over syslog\n');
    await waitFor(
      () => http.events.length >= 4 && tcp.lines.length >= 4,
      () => `4 events, got ${JSON.stringify(http.events)} ${tcp.lines}; stderr: ${svc.stderr()}`,
    );
    svc.child.kill('SIGTERM');
    const { status } = await svc.exited;
    const expected = [
      '{"appname":"app","message":"over syslog","source_type":"syslog"}',
      '{"appname":null,"message":"over http","source_type":"http_server"}',
      '{"appname":null,"message":"over tcp","source_type":"socket"}',
      '{"appname":null,"message":"over udp","source_type":"socket"}',
    ];
    assert.equal(sorted(http.events.map((event) => JSON.stringify(event))), expected);
    assert.equal(sorted(tcp.lines), expected);
    assert.is(status, 0, svc.stderr());
  } finally {
    svc.child.kill('SIGKILL');
    http.close();
    tcp.close();
  }
});

test('demo_logs (count), file, exec, internal_logs and internal_metrics into file and blackhole sinks', async () => {
  const dir = tempDir();
  const tailed = join(dir, 'app.log');
  writeFileSync(tailed, 'first line\n');
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${dir}
sources:
  demo:
    type: demo_logs
    format: shuffle
    lines: [demo line]
    count: 3
    interval: 0
  tail:
    type: file
    include: [${tailed}]
  run:
    type: exec
    mode: streaming
    command: [${JSON.stringify(process.execPath)}, -e, "console.log('from exec')"]
    streaming: { respawn_on_exit: false }
  logs:
    type: internal_logs
  metrics:
    type: internal_metrics
    scrape_interval_secs: 0.2
transforms:
  say:
    type: remap
    inputs: [demo]
    source: log("demo passed", level:"warn")
sinks:
  events:
    type: file
    path: ${dir}/events.log
    inputs: [say, tail, run]
    encoding: { codec: json }
  logs_out:
    type: file
    path: ${dir}/logs.log
    inputs: [logs]
    encoding: { codec: json }
  metrics_out:
    type: file
    path: ${dir}/metrics.log
    inputs: [metrics]
    encoding: { codec: json }
  nowhere:
    type: blackhole
    inputs: [demo, tail]
    print_interval_secs: 1
`,
  );
  const svc = startSvc(['--config', config]);
  try {
    const events = () => readLines(join(dir, 'events.log')).map((line) => JSON.parse(line) as Record<string, unknown>);
    await svc.waitForStderr(/svc has started/);
    appendFileSync(tailed, 'second line\n');
    await waitFor(
      () => events().length >= 6,
      () => `6 events, got ${JSON.stringify(events())}; stderr: ${svc.stderr()}`,
    );
    const metricReceived = (line: string) => {
      const event = JSON.parse(line) as { name?: string; tags?: Record<string, string>; counter?: { value: number } };
      return (
        event.name === 'component_received_events_total' &&
        event.tags?.component_id === 'nowhere' &&
        event.counter?.value === 5
      );
    };
    await waitFor(
      () => readLines(join(dir, 'metrics.log')).some(metricReceived),
      () => `a metric of 5 events into "nowhere"; stderr: ${svc.stderr()}`,
    );
    await waitFor(
      () => readLines(join(dir, 'logs.log')).some((line) => line.includes('demo passed')),
      () => `the remap log in logs.log; stderr: ${svc.stderr()}`,
    );
    svc.child.kill('SIGTERM');
    const { status } = await svc.exited;
    const messages = events().map((event) => `${String(event.source_type)}: ${String(event.message)}`);
    assert.equal(sorted(messages), [
      'demo_logs: demo line',
      'demo_logs: demo line',
      'demo_logs: demo line',
      'exec: from exec',
      'file: first line',
      'file: second line',
    ]);
    const log = JSON.parse(readLines(join(dir, 'logs.log')).find((line) => line.includes('demo passed'))!) as Record<
      string,
      unknown
    >;
    assert.is(log.source_type, 'internal_logs');
    assert.is((log.metadata as Record<string, unknown>).level, 'WARN');
    assert.match(svc.stderr(), /INFO svc::sinks::blackhole: Collected events\. .*events=5 /, svc.stderr());
    assert.is(status, 0, svc.stderr());
  } finally {
    svc.child.kill('SIGKILL');
  }
});

test.run();
