// The aws_s3 sink against s3rver (an S3 server in-process on a loopback port, objects in a temporary
// directory): objects per rendered key prefix, their keys, bodies (framing, JSON arrays, compression) and
// headers; each request's signature checked against the request as the server received it (s3rver checks
// only the access key); HeadBucket healthchecks; retries and refusals (a scripted server); configuration
// errors; and end-to-end acknowledgements through the `svc` executable.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import awsS3, { BucketAddress, buildS3Sink } from '../../../../host/components/sinks/aws_s3.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { Timestamp } from '../../../../runtime/index.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { httpTarget, instantTimer } from '../../support/http-target.js';
import { assertSigned } from '../../support/signature.js';
import { type S3Request, s3Server } from '../../support/s3-server.js';
import { freePort, startSvc, tempDir, waitFor } from '../../support/svc.js';

/** The server's key pair. */
const KEYS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' };

/** The request is signed with the server's keys, its payload hash among the signed headers. */
function assertSignedForS3(request: S3Request, region = 'us-east-1'): void {
  assertSigned(request, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, region, 's3');
  assert.match(String(request.headers.authorization), /SignedHeaders=[^,]*x-amz-content-sha256/);
}

const md5 = (body: Buffer) => createHash('md5').update(body).digest('base64');
const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

async function build(options: object, timer = instantTimer().timer, processEnv: NodeJS.ProcessEnv = {}) {
  const env = componentEnv(awsS3);
  const sink = await buildS3Sink(awsS3.options.parse(options), env, timer, {
    CLOUD_EC2_METADATA_DISABLED: 'true',
    CLOUD_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
    ...processEnv,
  });
  return { env, sink };
}

const day = new Timestamp(BigInt(Date.UTC(2026, 10, 28, 12)) * 1_000_000n);

test('one object per rendered key prefix: gzip, newline-delimited text without a trailing newline, Vector key names and headers, signed', async () => {
  const s3 = await s3Server();
  const before = Math.floor(Date.now() / 1000);
  const { env, sink } = await build({
    bucket: 'logs',
    region: 'us-east-1',
    endpoint: s3.uri,
    key_prefix: 'app={{ app }}/date=%F/',
    encoding: { codec: 'text' },
    auth: KEYS,
  });
  const statuses: BatchStatus[] = [];
  await sink.write({
    ...logBatch([
      { message: 'one', app: 'web', timestamp: day },
      { message: 'two', app: 'db', timestamp: day },
      { message: 'three', app: 'web', timestamp: day },
      { message: 'no app', timestamp: day },
    ]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  await sink.close();
  const objects = await s3.objects();
  await s3.close();
  const after = Math.floor(Date.now() / 1000);

  assert.equal(
    objects.map(({ key }) =>
      key.replace(/\/\d+-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\./, '/TIME-UUID.'),
    ),
    ['app=db/date=2026-11-28/TIME-UUID.log.gz', 'app=web/date=2026-11-28/TIME-UUID.log.gz'],
  );
  const seconds = Number(/\/(\d+)-/.exec(objects[0]!.key)![1]);
  assert.ok(seconds >= before && seconds <= after, `${seconds} is the time of sending`);
  assert.equal(
    objects.map(({ body }) => gunzipSync(body).toString()),
    ['two', 'one\nthree'],
  );
  assert.equal(objects[1]!.metadata['content-type'], 'text/x-log');
  assert.equal(objects[1]!.metadata['content-encoding'], 'gzip');
  assert.equal(objects[1]!.metadata['x-amz-storage-class'], 'STANDARD');
  const puts = s3.requests.filter((request) => request.method === 'PUT');
  assert.is(puts.length, 2);
  for (const put of puts) {
    assertSignedForS3(put);
    const stored = objects.find(({ key }) => put.url === `/logs/${key.split('/').map(encodeURIComponent).join('/')}`)!;
    assert.ok(stored, put.url);
    assert.is(put.headers['content-md5'], md5(stored.body));
    assert.is(put.headers['x-amz-content-sha256'], sha256(stored.body));
  }
  // The event without `app` does not render its prefix: dropped and counted; the batch is still delivered.
  assert.is(env.metrics.total('component_errors_total', { error_type: 'template_failed' }), 1);
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 1);
  assert.equal(statuses, ['delivered']);
  assert.is(
    env.metrics.total('component_sent_bytes_total', {}),
    objects.reduce((sum, { body }) => sum + body.length, 0),
  );
});

test('json: one JSON array per object; no compression; filename options; object options as headers; ssekms_key_id rendered per event partitions too', async () => {
  const s3 = await s3Server();
  const { sink } = await build({
    bucket: 'logs',
    region: 'eu-west-3',
    endpoint: `${s3.uri}/`,
    key_prefix: 'k/{{ app }}-',
    filename_time_format: '%Y',
    filename_append_uuid: false,
    filename_extension: 'json',
    compression: 'none',
    encoding: { codec: 'json', except_fields: ['kms'] },
    acl: 'bucket-owner-full-control',
    grant_read: 'id="reader"',
    storage_class: 'STANDARD_IA',
    server_side_encryption: 'aws:kms',
    ssekms_key_id: 'key-{{ kms }}',
    tags: { Project: 'Blue', Classification: 'confidential one' },
    content_type: 'application/json',
    auth: KEYS,
  });
  await sink.write(
    logBatch([
      { message: 'a', app: 'web', kms: 1 },
      { message: 'b', app: 'web', kms: 1 },
      { message: 'c', app: 'db', kms: 2 },
    ]),
  );
  await sink.close();
  const objects = await s3.objects();
  await s3.close();
  const year = new Date().getUTCFullYear();
  assert.equal(
    objects.map(({ key, body }) => [key, JSON.parse(body.toString())]),
    [
      [`k/db-${year}.json`, [{ app: 'db', message: 'c' }]],
      [
        `k/web-${year}.json`,
        [
          { app: 'web', message: 'a' },
          { app: 'web', message: 'b' },
        ],
      ],
    ],
  );
  assert.is(objects[1]!.metadata['content-type'], 'application/json');
  assert.is(objects[1]!.metadata['content-encoding'], undefined);
  assert.is(objects[1]!.metadata['x-amz-storage-class'], 'STANDARD_IA');
  const put = s3.requests.find((request) => request.method === 'PUT' && request.url.includes('web'))!;
  assertSignedForS3(put, 'eu-west-3');
  assert.is(put.headers['x-amz-acl'], 'bucket-owner-full-control');
  assert.is(put.headers['x-amz-grant-read'], 'id="reader"');
  assert.is(put.headers['x-amz-server-side-encryption'], 'aws:kms');
  assert.is(put.headers['x-amz-server-side-encryption-aws-kms-key-id'], 'key-1');
  assert.is(put.headers['x-amz-tagging'], 'Classification=confidential+one&Project=Blue');
});

test('healthcheck: HeadBucket; an unknown bucket and unknown credentials give Vector errors', async () => {
  const s3 = await s3Server();
  const check = async (options: object) => {
    const { sink } = await build({ region: 'us-east-1', endpoint: s3.uri, encoding: { codec: 'text' }, ...options });
    try {
      await sink.healthcheck!({});
      return 'healthy';
    } catch (error) {
      return (error as Error).message;
    } finally {
      await sink.close();
    }
  };
  assert.is(await check({ bucket: 'logs', auth: KEYS }), 'healthy');
  assert.is(await check({ bucket: 'missing', auth: KEYS }), 'Unknown bucket: "missing"');
  assert.is(
    await check({ bucket: 'logs', auth: { access_key_id: 'NOBODY', secret_access_key: 'x' } }),
    'Invalid credentials',
  );
  const heads = s3.requests.filter((request) => request.method === 'HEAD');
  assert.equal(
    heads.map((request) => request.url),
    ['/logs', '/missing', '/logs'],
  );
  assertSignedForS3(heads[0]!);
  await s3.close();
});

test('retries as Vector for the cloud: 5xx and a 4xx naming RequestTimeout are retried, a 403 is not (rejected, counted); retry_strategy', async () => {
  const error = (code: string) =>
    `<?xml version="1.0"?><Error><Code>${code}</Code><Message>says ${code}</Message></Error>`;
  const answers = [
    { status: 503, body: error('SlowDown') },
    { status: 400, body: error('RequestTimeout') },
    { status: 200 },
    { status: 403, body: error('AccessDenied') },
  ];
  const target = await httpTarget((_request, index) => answers[index]!);
  const { timer, waits } = instantTimer();
  const statuses: BatchStatus[] = [];
  const acked = (message: string) => ({
    ...logBatch([{ message }]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  const { sink } = await build(
    {
      bucket: 'logs',
      region: 'us-east-1',
      endpoint: target.uri,
      encoding: { codec: 'text' },
      batch: { max_events: 1 },
    },
    timer,
    { CLOUD_ACCESS_KEY_ID: 'S3RVER', CLOUD_SECRET_ACCESS_KEY: 'S3RVER' },
  );
  await sink.write(acked('retried'));
  await sink.close();
  const { env: refusedEnv, sink: refused } = await build(
    { bucket: 'logs', region: 'us-east-1', endpoint: target.uri, encoding: { codec: 'text' } },
    timer,
    { CLOUD_ACCESS_KEY_ID: 'S3RVER', CLOUD_SECRET_ACCESS_KEY: 'S3RVER' },
  );
  await refused.write(acked('refused'));
  await refused.close();
  await target.close();
  assert.is(target.requests.length, 4);
  assert.is(waits.length, 2);
  // Each attempt is signed anew (credentials from the CLOUD_* variables).
  for (const request of target.requests) assert.match(String(request.headers.authorization), /^AWS4-HMAC-SHA256 /);
  assert.equal(statuses, ['delivered', 'rejected']);
  assert.is(refusedEnv.metrics.total('component_errors_total', { error_type: 'request_failed' }), 1);
  const dropped = refusedEnv.logs.find((record) => record.message === 'Events dropped')!;
  assert.is(dropped.fields.reason, 'HTTP 403 AccessDenied: says AccessDenied');

  // retry_strategy: custom adds statuses; none retries nothing.
  const attempts = async (statuses: number[], retry_strategy: object) => {
    const server = await httpTarget((_request, index) => ({ status: statuses[index] ?? 200 }));
    const built = await build(
      {
        bucket: 'logs',
        region: 'us-east-1',
        endpoint: server.uri,
        encoding: { codec: 'text' },
        retry_strategy,
        auth: KEYS,
      },
      timer,
    );
    await built.sink.write(logBatch([{ message: 'x' }]));
    await built.sink.close();
    await server.close();
    return server.requests.length;
  };
  assert.is(await attempts([409], { type: 'custom', status_codes: [409] }), 2);
  assert.is(await attempts([409], { type: 'default' }), 1);
  assert.is(await attempts([503], { type: 'none' }), 1);
  assert.is(await attempts([403, 403], { type: 'all' }), 3);
});

test('addresses: the endpoint of the region, virtual-hosted or path-style; a custom endpoint with a path; keys encoded per segment', () => {
  assert.is(
    new BucketAddress(undefined, 'eu-west-1', 'logs', false).uri('date=2026-11-28/a b.log'),
    'https://logs.s3.eu-west-1.amazonaws.com/date%3D2026-11-28/a%20b.log',
  );
  assert.is(
    new BucketAddress(undefined, 'cn-north-1', 'logs', true).uri(),
    'https://s3.cn-north-1.amazonaws.com.cn/logs',
  );
  assert.is(new BucketAddress(undefined, 'us-east-1', 'logs', false).uri(), 'https://logs.s3.us-east-1.amazonaws.com/');
  assert.is(
    new BucketAddress('http://127.0.0.1:9000/store/', 'us-east-1', 'logs', true).uri('k/x'),
    'http://127.0.0.1:9000/store/logs/k/x',
  );
});

test('configuration: defaults as Vector; option errors; no region, no credentials: build errors naming the option', async () => {
  const parsed = awsS3.options.parse({ bucket: 'b', encoding: { codec: 'json' } });
  assert.is(parsed.key_prefix, 'date=%F');
  assert.is(parsed.filename_time_format, '%s');
  assert.is(parsed.filename_append_uuid, true);
  assert.is(parsed.compression, 'gzip');
  assert.is(parsed.storage_class, 'STANDARD');
  assert.is(parsed.force_path_style, true);
  assert.equal(parsed.batch, { max_bytes: 10_000_000, timeout_secs: 300 });
  const issues = (options: object) =>
    awsS3.options
      .safeParse({ encoding: { codec: 'text' }, ...options })
      .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  assert.equal(issues({ bucket: 's3://b' }), ['bucket: the bucket name, without a leading s3:// or a trailing /']);
  assert.equal(issues({ bucket: 'b', filename_time_format: '%Q' }), ['filename_time_format: not a strftime format']);
  assert.ok(issues({ bucket: 'b', storage_class: 'COLD' })?.[0]?.startsWith('storage_class: '));
  assert.equal(issues({ bucket: 'b', key_prefix: 'date=%Q/' }), [
    'key_prefix: invalid strftime specifier "%Q" in "date=%Q/"',
  ]);

  const failure = async (options: object, processEnv: NodeJS.ProcessEnv = {}) => {
    try {
      await build({ bucket: 'b', encoding: { codec: 'text' }, ...options }, undefined, processEnv);
      return 'built';
    } catch (error) {
      return (error as Error).message;
    }
  };
  assert.match(await failure({ auth: KEYS }), /^region: could not determine the region/);
  assert.is(await failure({ auth: KEYS }, { CLOUD_DEFAULT_REGION: 'us-west-2' }), 'built');
  assert.match(await failure({ region: 'us-east-1' }), /^auth: no credentials/);
  const credentials = join(tempDir(), 'credentials');
  writeFileSync(credentials, '[ops]\naws_access_key_id = K\naws_secret_access_key = S\n');
  assert.is(await failure({ region: 'us-east-1', auth: { credentials_file: credentials, profile: 'ops' } }), 'built');
  assert.match(
    await failure({ region: 'us-east-1', auth: { credentials_file: credentials, profile: 'dev' } }),
    /^auth\.credentials_file: the credentials file .* has no profile "dev"/,
  );
});

test('svc: an http_server source with acknowledgements answers only once its object is stored', async () => {
  const s3 = await s3Server();
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
  archive:
    type: aws_s3
    inputs: [web]
    bucket: logs
    region: us-east-1
    endpoint: ${s3.uri}
    key_prefix: "{{ app }}/"
    encoding: { codec: json }
    batch: { max_events: 1 }
    acknowledgements: true
`,
  );
  const release = s3.hold();
  const svc = startSvc(['--config', config], {
    env: { CLOUD_ACCESS_KEY_ID: 'S3RVER', CLOUD_SECRET_ACCESS_KEY: 'S3RVER', CLOUD_EC2_METADATA_DISABLED: 'true' },
  });
  try {
    // The healthcheck (HeadBucket) is held too: release it, then hold the PutObject.
    await waitFor(
      () => s3.requests.length === 1,
      () => `the healthcheck; stderr: ${svc.stderr()}`,
    );
    assert.is(s3.requests[0]!.method, 'HEAD');
    const releasePut = s3.hold();
    release();
    await svc.waitForStderr(/svc has started/);
    let answered = false;
    const posted = fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: '{"message":"hello","app":"web"}',
    }).then((response) => {
      answered = true;
      return response.status;
    });
    await waitFor(
      () => s3.requests.some((request) => request.method === 'PUT'),
      () => `a PutObject; stderr: ${svc.stderr()}`,
    );
    assert.is(answered, false);
    assert.equal(await s3.objects(), []);
    releasePut();
    assert.is(await posted, 200);
    const objects = await s3.objects();
    assert.is(objects.length, 1);
    assert.match(objects[0]!.key, /^web\/\d+-[0-9a-f-]{36}\.log\.gz$/);
    const stored = JSON.parse(gunzipSync(objects[0]!.body).toString()) as Array<Record<string, unknown>>;
    assert.equal(
      stored.map(({ app, message }) => ({ app, message })),
      [{ app: 'web', message: 'hello' }],
    );
    svc.child.kill('SIGTERM');
    const { status } = await svc.exited;
    assert.is(status, 0, svc.stderr());
  } finally {
    svc.child.kill('SIGKILL');
    await s3.close();
  }
});

test.run();
