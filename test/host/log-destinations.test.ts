// End-to-end acknowledgements through the real `svc` executable into the log destinations: an http_server
// source whose sinks (loki, elasticsearch, splunk_hec_logs) acknowledge answers its client only once every
// destination accepted the event — Loki's held push, Elasticsearch's bulk request, Splunk's indexer
// acknowledgement. Then issue 24's shape: a transaction merged by `reduce` reaching each destination whole.
// Local servers on 127.0.0.1 stand in for the destinations (s3rver for aws_s3).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Answer, httpTarget } from './support/http-target.js';
import { s3Server } from './support/s3-server.js';
import { freePort, startSvc, tempDir, waitFor } from './support/svc.js';

const require = createRequire(import.meta.url);
const snappy = require('snappyjs') as { uncompress(bytes: Uint8Array): Uint8Array };

test('http_server with acknowledgements answers once loki, elasticsearch and splunk_hec_logs all accepted the event', async () => {
  let releaseLoki: (answer: Answer) => void = () => {};
  const loki = await httpTarget(() => new Promise<Answer>((resolve) => (releaseLoki = resolve)));
  const elasticsearch = await httpTarget((request) =>
    request.method === 'GET'
      ? { status: 200, body: { version: { number: '8.12.0' } } }
      : { status: 200, body: { errors: false, items: [{ index: { status: 201 } }] } },
  );
  let indexed = false;
  const splunk = await httpTarget((request) =>
    request.url === '/services/collector/ack'
      ? { status: 200, body: { acks: { 1: indexed } } }
      : { status: 200, body: { text: 'Success', code: 0, ackId: 1 } },
  );
  const port = await freePort();
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  web:
    type: http_server
    address: 127.0.0.1:${port}
    decoding: { codec: json }
sinks:
  to_loki:
    type: loki
    inputs: [web]
    endpoint: ${loki.uri}
    encoding: { codec: json }
    labels: { source: svc }
    acknowledgements: true
    healthcheck: { enabled: false }
  to_elasticsearch:
    type: elasticsearch
    inputs: [web]
    endpoints: [${elasticsearch.uri}]
    bulk: { index: logs }
    acknowledgements: true
    healthcheck: { enabled: false }
  to_splunk:
    type: splunk_hec_logs
    inputs: [web]
    endpoint: ${splunk.uri}
    default_token: secret
    encoding: { codec: json }
    acknowledgements: { enabled: true, query_interval: 1 }
    healthcheck: { enabled: false }
`,
  );
  const svc = startSvc(['--config', config]);
  try {
    await svc.waitForStderr(/svc has started/);
    let answered = false;
    const posted = fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"message":"hello","app":"web"}' }).then(
      (response) => {
        answered = true;
        return response.status;
      },
    );
    const bulks = () => elasticsearch.requests.filter((request) => request.method === 'POST');
    const ackQueries = () => splunk.requests.filter((request) => request.url === '/services/collector/ack');
    await waitFor(
      () => loki.requests.length === 1 && bulks().length === 1 && ackQueries().length >= 1,
      () => `a push, a bulk request and an ack query; stderr: ${svc.stderr()}`,
    );
    // Elasticsearch took it; Loki holds its answer and Splunk has not indexed it: no answer yet.
    assert.is(answered, false);
    indexed = true;
    await waitFor(
      () => ackQueries().some((_request, index) => index > 0),
      () => 'a second ack query',
    );
    assert.is(answered, false);
    releaseLoki({ status: 204 });
    assert.is(await posted, 200);

    const push = loki.requests[0]!;
    assert.match(snappy.uncompress(push.body).toString(), /"message":"hello"/);
    const [action, document] = bulks()[0]!.body.toString().trimEnd().split('\n');
    assert.equal(JSON.parse(action!), { index: { _index: 'logs' } });
    assert.is((JSON.parse(document!) as { message: string }).message, 'hello');
    const hec = JSON.parse(splunk.requests[0]!.body.toString()) as { event: { message: string } };
    assert.is(hec.event.message, 'hello');
    svc.child.kill('SIGTERM');
    const { status } = await svc.exited;
    assert.is(status, 0, svc.stderr());
  } finally {
    svc.child.kill('SIGKILL');
    await Promise.all([loki.close(), elasticsearch.close(), splunk.close()]);
  }
});

test('logs → reduce (a transaction merged by group_by and ends_when) → loki, elasticsearch, splunk_hec_logs, aws_s3: each gets the merged documents', async () => {
  const loki = await httpTarget(() => ({ status: 204 }));
  const elasticsearch = await httpTarget((request) =>
    request.method === 'GET'
      ? { status: 200, body: { version: { number: '8.12.0' } } }
      : { status: 200, body: { errors: false, items: [{ index: { status: 201 } }, { index: { status: 201 } }] } },
  );
  const splunk = await httpTarget(() => ({ status: 200, body: { text: 'Success', code: 0 } }));
  const s3 = await s3Server();
  const port = await freePort();
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  web: { type: http_server, address: "127.0.0.1:${port}", decoding: { codec: json } }
transforms:
  transactions:
    type: reduce
    inputs: [web]
    group_by: [txn]
    ends_when: .end == true
    merge_strategies: { message: concat_newline }
sinks:
  to_loki:
    type: loki
    inputs: [transactions]
    endpoint: ${loki.uri}
    compression: none
    encoding: { codec: json }
    labels: { txn: "{{ txn }}" }
    batch: { timeout_secs: 0.1 }
    healthcheck: { enabled: false }
  to_elasticsearch:
    type: elasticsearch
    inputs: [transactions]
    endpoints: [${elasticsearch.uri}]
    bulk: { index: transactions }
    batch: { timeout_secs: 0.1 }
    healthcheck: { enabled: false }
  to_splunk:
    type: splunk_hec_logs
    inputs: [transactions]
    endpoint: ${splunk.uri}
    default_token: secret
    encoding: { codec: json }
    batch: { timeout_secs: 0.1 }
    acknowledgements: { indexer_acknowledgements_enabled: false }
    healthcheck: { enabled: false }
  to_s3:
    type: aws_s3
    inputs: [transactions]
    bucket: logs
    region: us-east-1
    endpoint: ${s3.uri}
    auth: { access_key_id: S3RVER, secret_access_key: S3RVER }
    key_prefix: "txn={{ txn }}/"
    encoding: { codec: json }
    framing: { method: newline_delimited }
    batch: { timeout_secs: 0.1 }
    healthcheck: { enabled: false }
`,
  );
  const svc = startSvc(['--config', config]);
  try {
    await svc.waitForStderr(/svc has started/);
    const lines = [
      { txn: 'a', message: 'begin', amount: 1 },
      { txn: 'b', message: 'open', amount: 10 },
      { txn: 'a', message: 'charge', amount: 2 },
      { txn: 'a', message: 'commit', amount: 3, end: true },
      { txn: 'b', message: 'close', amount: 20, end: true },
    ];
    for (const line of lines)
      assert.is((await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify(line) })).status, 200);
    const expected = [
      { txn: 'a', message: 'begin\ncharge\ncommit', amount: 6 },
      { txn: 'b', message: 'open\nclose', amount: 30 },
    ];
    type Doc = { txn: string; message: string; amount: number };
    const pick = (docs: Doc[]) =>
      docs.map(({ txn, message, amount }) => ({ txn, message, amount })).sort((x, y) => x.txn.localeCompare(y.txn));
    const lokiDocs = () =>
      loki.requests.flatMap((request) =>
        (JSON.parse(request.body.toString()) as { streams: Array<{ values: string[][] }> }).streams.flatMap((stream) =>
          stream.values.map(([, line]) => JSON.parse(line!) as Doc),
        ),
      );
    const bulkDocs = () =>
      elasticsearch.requests
        .filter((request) => request.method === 'POST')
        .flatMap((request) =>
          request.body
            .toString()
            .trimEnd()
            .split('\n')
            .filter((_line, i) => i % 2 === 1)
            .map((line) => JSON.parse(line) as Doc),
        );
    const hecDocs = () =>
      splunk.requests.flatMap((request) =>
        request.body
          .toString()
          .split(/(?<=\})(?=\{"event")/)
          .map((object) => (JSON.parse(object) as { event: Doc }).event),
      );
    const puts = () => s3.requests.filter((request) => request.method === 'PUT').length;
    await waitFor(
      () => lokiDocs().length >= 2 && bulkDocs().length >= 2 && hecDocs().length >= 2 && puts() >= 2,
      () =>
        `loki ${lokiDocs().length}, elasticsearch ${bulkDocs().length}, splunk ${hecDocs().length}, s3 ${puts()}; stderr: ${svc.stderr()}`,
    );
    assert.equal(pick(lokiDocs()), expected);
    assert.equal(pick(bulkDocs()), expected);
    assert.equal(pick(hecDocs()), expected);
    // One gzip object of newline-delimited JSON per transaction, under its prefix (s3rver stores a PUT's
    // object after it recorded the request).
    let objects = await s3.objects();
    while (objects.length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      objects = await s3.objects();
    }
    assert.equal(
      objects.map(({ key }) => key.split('/')[0]),
      ['txn=a', 'txn=b'],
    );
    assert.equal(pick(objects.map(({ body }) => JSON.parse(gunzipSync(body).toString()) as Doc)), expected);
    svc.child.kill('SIGTERM');
    const { status } = await svc.exited;
    assert.is(status, 0, svc.stderr());
    // Nothing more at shutdown: both transactions had ended.
    assert.is(lokiDocs().length + bulkDocs().length + hecDocs().length + puts(), 8);
  } finally {
    svc.child.kill('SIGKILL');
    await Promise.all([loki.close(), elasticsearch.close(), splunk.close(), s3.close()]);
  }
});

test.run();
