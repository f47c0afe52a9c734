// Secret backends: each one resolving `SECRET[backend.key]` references of a loaded configuration, their
// errors naming the file, the backend and the option, and secret values kept out of what svc prints.
// Integration: the exec backend runs commands and the cloud backend talks to a local HTTP server.

import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../host/config/errors.js';
import { redactSecrets } from '../../../host/config/redaction.js';
import { execRequest, loadConfigWithSecrets } from '../../../host/config/secrets.js';
import { signV4 } from '../../../host/config/sigv4.js';
import { LogHub } from '../../../host/log.js';
import { makeCertificates } from '../support/certificates.js';
import { localProxy } from '../support/proxy-server.js';

/** Writes `files` (relative path → content) under a fresh temporary directory; returns its path. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** The `sinks.out` options of `svc.yaml` under `root`, loaded with its secrets. */
async function load(root: string, env: NodeJS.ProcessEnv = {}) {
  const raw = await loadConfigWithSecrets({ files: [{ path: join(root, 'svc.yaml') }], dirs: [] }, { env });
  return raw.sections.sinks.get('out')!.table;
}

async function errorsOf(root: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  try {
    await load(root, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.errors;
    throw error;
  }
  assert.unreachable('the configuration loaded');
  return [];
}

/** A config whose `sinks.out` has `options` (YAML flow text) and whose `secret` section is `secret` (YAML). */
const config = (secret: string, options: string) => `secret:\n${secret}\nsinks:\n  out: { type: x, ${options} }\n`;

test('file: a JSON object of key → value; keys may hold dots; a value may stand anywhere in a string', async () => {
  const root = tree({ 'secrets.json': JSON.stringify({ token: 'f1le-t0ken', 'db.password': 'pa55:word' }) });
  writeFileSync(
    join(root, 'svc.yaml'),
    config(
      `  vault: { type: file, path: ${join(root, 'secrets.json')} }`,
      'token: "SECRET[vault.token]", uri: "https://u:SECRET[vault.db.password]@h/"',
    ),
  );
  assert.equal(await load(root), { type: 'x', token: 'f1le-t0ken', uri: 'https://u:pa55:word@h/' });
});

test('file: errors name the file, the backend, the option and where the key is used', async () => {
  const root = tree({ 'secrets.json': '{"other": "x", "empty": ""}', 'list.json': '["x"]' });
  const svc = join(root, 'svc.yaml');
  writeFileSync(
    svc,
    config(
      `  vault: { type: file, path: ${join(root, 'secrets.json')} }\n  gone: { type: file, path: ${join(root, 'gone.json')} }\n  list: { type: file, path: ${join(root, 'list.json')} }`,
      'a: "SECRET[vault.token]", b: "SECRET[vault.empty]", c: "SECRET[gone.x]", d: "SECRET[list.x]", e: "SECRET[valt.x]"',
    ),
  );
  const errors = (await errorsOf(root)).map((e) => e.split(root).join('<dir>'));
  assert.equal(errors.sort(), [
    '<dir>/svc.yaml: secret.gone (file): option "path": cannot read "<dir>/gone.json": ENOENT: no such file or directory, open \'<dir>/gone.json\'',
    '<dir>/svc.yaml: secret.list (file): option "path": "<dir>/list.json" is not a JSON object of key → value',
    '<dir>/svc.yaml: secret.vault (file): key "token" (SECRET[vault.token] at <dir>/svc.yaml:6): not found in "<dir>/secrets.json" (option "path")',
    '<dir>/svc.yaml:6: SECRET[valt.x]: no secret backend "valt" in the "secret" section; did you mean "vault"?',
  ]);
});

test('directory: one file per key, kept as read unless remove_trailing_whitespace (as Vector)', async () => {
  const root = tree({ 'keys/token': 'd1r-t0ken  ', 'keys/nested.key': 'n3sted \n\n' });
  writeFileSync(
    join(root, 'svc.yaml'),
    config(
      `  raw: { type: directory, path: ${join(root, 'keys')} }\n  trimmed: { type: directory, path: ${join(root, 'keys')}, remove_trailing_whitespace: true }`,
      'a: "SECRET[trimmed.token]", b: "SECRET[trimmed.nested.key]", c: "SECRET[raw.token]"',
    ),
  );
  assert.equal(await load(root), { type: 'x', a: 'd1r-t0ken', b: 'n3sted', c: 'd1r-t0ken  ' });
});

test('directory: a missing or empty file names the key, the file and the option', async () => {
  const root = tree({ 'keys/blank': ' \n' });
  writeFileSync(
    join(root, 'svc.yaml'),
    config(
      `  d: { type: directory, path: ${join(root, 'keys')}, remove_trailing_whitespace: true }`,
      'a: "SECRET[d.blank]"',
    ),
  );
  const errors = (await errorsOf(root)).map((e) => e.split(root).join('<dir>'));
  assert.equal(errors, [
    '<dir>/svc.yaml: secret.d (directory): key "blank" (SECRET[d.blank] at <dir>/svc.yaml:4): the file "<dir>/keys/blank" (option "path") is empty',
  ]);
});

/** A node script that records its request in `request.json` and answers `answer` (or exits with `status`). */
function execScript(root: string, answer: string, status = 0): string {
  const path = join(root, 'backend.mjs');
  writeFileSync(
    path,
    `import { writeFileSync } from 'node:fs';
let input = '';
process.stdin.setEncoding('utf8').on('data', (c) => (input += c)).on('end', () => {
  writeFileSync(${JSON.stringify(join(root, 'request.json'))}, input);
  if (${status} !== 0) { process.stderr.write('vault sealed\\n'); process.exit(${status}); }
  process.stdout.write(${JSON.stringify(answer)});
});
`,
  );
  return JSON.stringify([process.execPath, path]);
}

test('exec v1: the request is {"version":"1.0","secrets":[...]}; the answer gives each value', async () => {
  const root = tree({});
  const command = execScript(
    root,
    JSON.stringify({ token: { value: 'ex3c-t0ken', error: null }, 'a.b': { value: 'ab12' } }),
  );
  writeFileSync(
    join(root, 'svc.yaml'),
    config(
      `  run: { type: exec, command: ${command} }`,
      'a: "SECRET[run.token]", b: "SECRET[run.a.b]", c: "SECRET[run.token]"',
    ),
  );
  assert.equal(await load(root), { type: 'x', a: 'ex3c-t0ken', b: 'ab12', c: 'ex3c-t0ken' });
  assert.equal(JSON.parse(readFileSync(join(root, 'request.json'), 'utf8')), {
    version: '1.0',
    secrets: ['token', 'a.b'],
  });
});

test('exec v1_1: the request adds "type" and "config", with version "1.1" (decision 12)', async () => {
  const root = tree({});
  const command = execScript(root, JSON.stringify({ token: { value: 'v11-t0ken', error: null } }));
  writeFileSync(
    join(root, 'svc.yaml'),
    config(
      `  run: { type: exec, command: ${command}, protocol: { version: v1_1, backend_type: file.json, backend_config: { file_path: /abc.json } } }`,
      'a: "SECRET[run.token]"',
    ),
  );
  assert.equal(await load(root), { type: 'x', a: 'v11-t0ken' });
  assert.equal(
    readFileSync(join(root, 'request.json'), 'utf8'),
    '{"version":"1.1","secrets":["token"],"type":"file.json","config":{"file_path":"/abc.json"}}',
  );
  assert.equal(
    execRequest({ type: 'exec', command: ['x'], timeout: 5, protocol: { version: 'v1_1', backend_type: 't' } }, ['k']),
    { version: '1.1', secrets: ['k'], type: 't', config: null },
  );
});

test("exec: an error for a key, a non-zero exit, output that is not the protocol's, a timeout", async () => {
  const cases: Array<[string, number, string, string]> = [
    [
      JSON.stringify({ token: { value: null, error: 'backend does not provide secret key' } }),
      0,
      '',
      'key "token" (SECRET[run.token] at <dir>/svc.yaml:4): the command reported: backend does not provide secret key',
    ],
    [
      JSON.stringify({ other: { value: 'x', error: null } }),
      0,
      '',
      'key "token" (SECRET[run.token] at <dir>/svc.yaml:4): not in the command\'s output',
    ],
    ['', 3, '', 'option "command": the command <command> exited with status 3: vault sealed'],
    ['not json', 0, '', "option \"command\": the command's output is not JSON: Unexpected token 'o'"],
  ];
  for (const [answer, status, , expected] of cases) {
    const root = tree({});
    const command = execScript(root, answer, status);
    writeFileSync(
      join(root, 'svc.yaml'),
      config(`  run: { type: exec, command: ${command} }`, 'a: "SECRET[run.token]"'),
    );
    const errors = (await errorsOf(root)).map((e) => e.split(command).join('<command>').split(root).join('<dir>'));
    assert.equal(errors, [`<dir>/svc.yaml: secret.run (exec): ${expected}`]);
  }
  const root = tree({ 'hang.mjs': 'setInterval(() => {}, 1000);\n' });
  const command = JSON.stringify([process.execPath, join(root, 'hang.mjs')]);
  writeFileSync(
    join(root, 'svc.yaml'),
    config(`  run: { type: exec, command: ${command}, timeout: 1 }`, 'a: "SECRET[run.token]"'),
  );
  assert.match(
    (await errorsOf(root))[0]!,
    /secret\.run \(exec\): option "timeout": the command .* did not finish within 1 s$/,
  );
});

/** A local stand-in for the cloud's Secrets Manager: records each request, answers `answer(secretId)`; over
 * HTTPS with `tls` (a certificate and key). */
async function cloudServer(
  answer: (secretId: string) => { status: number; body: unknown },
  tls?: { cert: Buffer; key: Buffer },
) {
  const requests: Array<{ headers: IncomingMessage['headers']; body: string; url: string }> = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body, url: request.url! });
      const { status, body: reply } = answer((JSON.parse(body) as { SecretId: string }).SecretId);
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(reply));
    });
  };
  const server = tls ? createHttpsServer(tls, handle) : createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const endpoint = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { endpoint, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

const SECRETS = { 'prod/api': JSON.stringify({ api_key: 'cl0ud-key', 'x.y': 'xy-value' }) };

function secretsManager(secretId: string) {
  const text = SECRETS[secretId as keyof typeof SECRETS];
  return text === undefined
    ? {
        status: 400,
        body: { __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." },
      }
    : { status: 200, body: { ARN: `arn:${secretId}`, Name: secretId, SecretString: text, VersionId: 'v1' } };
}

test('cloud_secrets_manager: GetSecretValue over the JSON 1.1 protocol, signed with the configured keys', async () => {
  const cloud = await cloudServer(secretsManager);
  try {
    const root = tree({});
    writeFileSync(
      join(root, 'svc.yaml'),
      config(
        `  sm: { type: cloud_secrets_manager, secret_id: prod/api, region: eu-west-3, endpoint: "${cloud.endpoint}", auth: { access_key_id: AKIDTEST, secret_access_key: s3cr3t-access, session_token: sess-token } }`,
        'a: "SECRET[sm.api_key]", b: "SECRET[sm.x.y]"',
      ),
    );
    assert.equal(await load(root), { type: 'x', a: 'cl0ud-key', b: 'xy-value' });
    assert.is(cloud.requests.length, 1, 'one call for the backend');
    const [{ headers, body, url }] = cloud.requests as [(typeof cloud.requests)[0]];
    assert.is(url, '/');
    assert.is(body, '{"SecretId":"prod/api"}');
    assert.is(headers['x-amz-target'], 'secretsmanager.GetSecretValue');
    assert.is(headers['content-type'], 'application/x-amz-json-1.1');
    assert.is(headers['x-amz-security-token'], 'sess-token');
    const authorization = headers.authorization!;
    assert.match(
      authorization,
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-3\/secretsmanager\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/,
    );
    // The server's own check: the signature over what it received, with the secret key, is the one sent.
    const signed = Object.fromEntries(
      ['content-type', 'host', 'x-amz-date', 'x-amz-security-token', 'x-amz-target'].map((name) => [
        name,
        String(headers[name]),
      ]),
    );
    const expected = signV4(
      { method: 'POST', url: new URL(`${cloud.endpoint}/`), headers: signed, body },
      { accessKeyId: 'AKIDTEST', secretAccessKey: 's3cr3t-access' },
      'eu-west-3',
      'secretsmanager',
    );
    assert.is(authorization, expected);
  } finally {
    await cloud.close();
  }
});

test('cloud_secrets_manager over HTTPS: the endpoint is verified against tls.ca_file; an unreadable one is named', async () => {
  const certificates = makeCertificates();
  const cloud = await cloudServer(secretsManager, {
    cert: readFileSync(certificates.serverCrt),
    key: readFileSync(certificates.serverKey),
  });
  try {
    const root = tree({});
    const write = (tls: string) =>
      writeFileSync(
        join(root, 'svc.yaml'),
        config(
          `  sm: { type: cloud_secrets_manager, secret_id: prod/api, endpoint: "${cloud.endpoint}", auth: { access_key_id: AKIDTEST, secret_access_key: s3cr3t-access }${tls} }`,
          'a: "SECRET[sm.api_key]"',
        ),
      );
    write(`, tls: { ca_file: "${certificates.ca}" }`);
    assert.equal(await load(root), { type: 'x', a: 'cl0ud-key' });
    // Without the test CA the server's certificate is not trusted.
    write('');
    assert.match((await errorsOf(root))[0]!, /option "endpoint": GetSecretValue on https:\/\/127\.0\.0\.1:\d+ failed/);
    write(', tls: { ca_file: /nonexistent/ca.pem }');
    assert.match(
      (await errorsOf(root))[0]!,
      /option "tls\.ca_file": cannot read "\/nonexistent\/ca\.pem": no such file/,
    );
  } finally {
    await cloud.close();
  }
});

test('cloud_secrets_manager: the call goes through the proxy of the environment (lowercase first), unless NO_PROXY exempts the endpoint', async () => {
  const cloud = await cloudServer(secretsManager);
  const [proxy, ignored] = await Promise.all([localProxy(), localProxy()]);
  try {
    const root = tree({});
    writeFileSync(
      join(root, 'svc.yaml'),
      config(
        `  sm: { type: cloud_secrets_manager, secret_id: prod/api, endpoint: "${cloud.endpoint}", auth: { access_key_id: AKIDTEST, secret_access_key: s3cr3t-access } }`,
        'a: "SECRET[sm.api_key]"',
      ),
    );
    assert.equal(await load(root, { http_proxy: proxy.uri, HTTP_PROXY: ignored.uri }), { type: 'x', a: 'cl0ud-key' });
    assert.equal(proxy.requests, [`POST ${cloud.endpoint}/`]);
    // The signature still holds: the proxy forwards the signed request as it is.
    assert.is(cloud.requests.length, 1);
    assert.equal(await load(root, { HTTP_PROXY: proxy.uri, NO_PROXY: '127.0.0.0/8' }), { type: 'x', a: 'cl0ud-key' });
    assert.is(proxy.requests.length, 1);
    assert.is(ignored.requests.length, 0);
    assert.is(cloud.requests.length, 2);
  } finally {
    await Promise.all([cloud.close(), proxy.close(), ignored.close()]);
  }
});

test('cloud_secrets_manager: credentials from CLOUD_* variables or a credentials file; errors name the option', async () => {
  const cloud = await cloudServer(secretsManager);
  try {
    const root = tree({
      credentials:
        '[default]\naws_access_key_id = AKIDDEF\n\n[ops]\naws_access_key_id=AKIDFILE\naws_secret_access_key=f1le-secret\n',
    });
    const backend = (extra: string) =>
      `  sm: { type: cloud_secrets_manager, secret_id: prod/api, endpoint: "${cloud.endpoint}"${extra} }`;
    writeFileSync(join(root, 'svc.yaml'), config(backend(''), 'a: "SECRET[sm.api_key]"'));
    await load(root, {
      CLOUD_ACCESS_KEY_ID: 'AKIDENV',
      CLOUD_SECRET_ACCESS_KEY: 'env-secret',
      CLOUD_DEFAULT_REGION: 'ap-south-1',
    });
    assert.match(
      cloud.requests.at(-1)!.headers.authorization!,
      /Credential=AKIDENV\/\d{8}\/ap-south-1\/secretsmanager\//,
    );
    writeFileSync(
      join(root, 'svc.yaml'),
      config(
        backend(`, auth: { credentials_file: ${join(root, 'credentials')}, profile: ops }`),
        'a: "SECRET[sm.api_key]"',
      ),
    );
    await load(root);
    assert.match(cloud.requests.at(-1)!.headers.authorization!, /Credential=AKIDFILE\/\d{8}\/us-east-1\//);

    writeFileSync(join(root, 'svc.yaml'), config(backend(''), 'a: "SECRET[sm.api_key]"'));
    const [noCredentials] = await errorsOf(root, {
      CLOUD_SHARED_CREDENTIALS_FILE: join(root, 'none'),
      CLOUD_EC2_METADATA_DISABLED: 'true',
    });
    assert.match(
      noCredentials!,
      /svc\.yaml: secret\.sm \(cloud_secrets_manager\): option "auth": no credentials: set auth\.access_key_id/,
    );
    writeFileSync(
      join(root, 'svc.yaml'),
      config(
        backend(', auth: { access_key_id: A, secret_access_key: B }').replace('prod/api', 'prod/gone'),
        'a: "SECRET[sm.api_key]"',
      ),
    );
    assert.equal(
      (await errorsOf(root)).map((e) => e.split(root).join('<dir>')),
      [
        `<dir>/svc.yaml: secret.sm (cloud_secrets_manager): option "secret_id": GetSecretValue of "prod/gone" failed: HTTP 400 ResourceNotFoundException: Secrets Manager can't find the specified secret.`,
      ],
    );
    writeFileSync(
      join(root, 'svc.yaml'),
      config(backend(', auth: { access_key_id: A, secret_access_key: B }'), 'a: "SECRET[sm.nope]"'),
    );
    assert.equal(
      (await errorsOf(root)).map((e) => e.split(root).join('<dir>')),
      [
        '<dir>/svc.yaml: secret.sm (cloud_secrets_manager): key "nope" (SECRET[sm.nope] at <dir>/svc.yaml:4): not found in the secret "prod/api" (option "secret_id")',
      ],
    );
  } finally {
    await cloud.close();
  }
});

test("cloud_secrets_manager: without other credentials, the instance role's from the metadata service (IMDSv2, retried)", async () => {
  const cloud = await cloudServer(secretsManager);
  const calls: string[] = [];
  let failures = 1;
  const imds = createServer((request, response) => {
    calls.push(`${request.method} ${request.url} ${request.headers['x-aws-ec2-metadata-token'] ?? ''}`);
    if (failures > 0 && failures--) return response.writeHead(503).end();
    if (request.method === 'PUT' && request.url === '/latest/api/token') {
      assert.is(request.headers['x-aws-ec2-metadata-token-ttl-seconds'], '21600');
      return response.end('t0ken');
    }
    if (request.headers['x-aws-ec2-metadata-token'] !== 't0ken') return response.writeHead(401).end();
    if (request.url === '/latest/meta-data/iam/security-credentials/') return response.end('svc-role\n');
    if (request.url === '/latest/meta-data/iam/security-credentials/svc-role')
      return response.end(
        JSON.stringify({ Code: 'Success', AccessKeyId: 'AKIDIMDS', SecretAccessKey: 'i', Token: 'sess' }),
      );
    response.writeHead(404).end();
  });
  imds.listen(0, '127.0.0.1');
  await once(imds, 'listening');
  const imdsEndpoint = `http://127.0.0.1:${(imds.address() as AddressInfo).port}`;
  try {
    const root = tree({});
    const backend = `  sm: { type: cloud_secrets_manager, secret_id: prod/api, endpoint: "${cloud.endpoint}" }`;
    writeFileSync(join(root, 'svc.yaml'), config(backend, 'a: "SECRET[sm.api_key]"'));
    const env = {
      CLOUD_SHARED_CREDENTIALS_FILE: join(root, 'none'),
      CLOUD_EC2_METADATA_SERVICE_ENDPOINT: imdsEndpoint,
    };
    await load(root, env);
    assert.equal(calls, [
      'PUT /latest/api/token ',
      'PUT /latest/api/token ',
      'GET /latest/meta-data/iam/security-credentials/ t0ken',
      'GET /latest/meta-data/iam/security-credentials/svc-role t0ken',
    ]);
    const { headers } = cloud.requests.at(-1)!;
    assert.match(headers.authorization!, /Credential=AKIDIMDS\//);
    assert.is(headers['x-amz-security-token'], 'sess');

    // A service that keeps failing is tried `auth.imds.max_attempts` times, and the error says what it answered.
    failures = Number.POSITIVE_INFINITY;
    calls.length = 0;
    writeFileSync(
      join(root, 'svc.yaml'),
      config(backend.replace(' }', ', auth: { imds: { max_attempts: 2 } } }'), 'a: "SECRET[sm.api_key]"'),
    );
    const [error] = await errorsOf(root, env);
    assert.match(
      error!,
      /option "auth": no credentials: .*the instance metadata service gave none \(http:\/\/127\.0\.0\.1:\d+: PUT \/latest\/api\/token: HTTP 503\)/,
    );
    assert.is(calls.length, 2);
  } finally {
    await Promise.all([cloud.close(), new Promise((resolve) => imds.close(resolve))]);
  }
});

test("cloud_secrets_manager: auth.assume_role gets the role's credentials from AssumeRole, signed with the keys", async () => {
  const calls: Array<{ authorization: string; body: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      calls.push({ authorization: request.headers.authorization!, body });
      if (request.headers['content-type'] === 'application/x-www-form-urlencoded')
        response.end(
          '<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>ASIAROLE</AccessKeyId>' +
            '<SecretAccessKey>role-secret</SecretAccessKey><SessionToken>role-token</SessionToken>' +
            '</Credentials></AssumeRoleResult></AssumeRoleResponse>',
        );
      else response.end(JSON.stringify({ SecretString: SECRETS['prod/api'] }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const root = tree({});
    writeFileSync(
      join(root, 'svc.yaml'),
      config(
        `  sm: { type: cloud_secrets_manager, secret_id: prod/api, region: eu-west-1, endpoint: "${endpoint}", auth: { access_key_id: AKIDBASE, secret_access_key: base-secret, assume_role: "arn:role/reader", external_id: ext-1, session_name: s1, region: us-west-2 } }`,
        'a: "SECRET[sm.api_key]"',
      ),
    );
    assert.equal(await load(root, { CLOUD_ENDPOINT_URL_STS: endpoint }), { type: 'x', a: 'cl0ud-key' });
    const [assume, get] = calls as [(typeof calls)[0], (typeof calls)[0]];
    assert.equal(Object.fromEntries(new URLSearchParams(assume.body)), {
      Action: 'AssumeRole',
      Version: '2011-06-15',
      RoleArn: 'arn:role/reader',
      RoleSessionName: 's1',
      ExternalId: 'ext-1',
    });
    assert.match(assume.authorization, /Credential=AKIDBASE\/\d{8}\/us-west-2\/sts\/aws4_request/);
    assert.match(get.authorization, /Credential=ASIAROLE\/\d{8}\/eu-west-1\/secretsmanager\/aws4_request/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an invalid backend is reported as validation reports it; backends nothing uses are not asked', async () => {
  const root = tree({});
  writeFileSync(
    join(root, 'svc.yaml'),
    config('  bad: { type: file }\n  unused: { type: exec, command: [/nonexistent] }', 'a: "SECRET[bad.x]"'),
  );
  assert.equal(
    (await errorsOf(root)).map((e) => e.split(root).join('<dir>')),
    ['<dir>/svc.yaml: secret.bad: missing required option "path"'],
  );
});

test('no leak: errors and logs that quote a secret value show its reference instead', async () => {
  const root = tree({ 'secrets.json': JSON.stringify({ codec: 'hunter2-codec' }) });
  writeFileSync(
    join(root, 'svc.yaml'),
    `secret:\n  vault: { type: file, path: ${join(root, 'secrets.json')} }\nsinks:\n  out: { type: x, codec: "SECRET[vault.codec]" }\n`,
  );
  await load(root);
  const error = new ConfigError(['option "encoding.codec": expected one of "json", got "hunter2-codec"']);
  assert.equal(error.errors, ['option "encoding.codec": expected one of "json", got "SECRET[vault.codec]"']);
  assert.not.match(error.message, 'hunter2');
  assert.is(redactSecrets('{"codec":"hunter2-codec"}'), '{"codec":"SECRET[vault.codec]"}');
  const lines: string[] = [];
  const hub = new LogHub({
    level: 'info',
    format: 'json',
    color: false,
    rateLimitSecs: 0,
    backtraces: false,
    write: (line) => lines.push(line),
  });
  const received: string[] = [];
  hub.subscribe((record) => received.push(record.message, String(record.fields.uri)));
  hub.logger('svc').error('Request to hunter2-codec failed.', { uri: 'https://h/?k=hunter2-codec' });
  assert.not.match(lines.join('') + received.join(''), 'hunter2');
  assert.match(lines[0] ?? '', 'Request to SECRET[vault.codec] failed.');
  assert.equal(received, ['Request to SECRET[vault.codec] failed.', 'https://h/?k=SECRET[vault.codec]']);
});

test.run();
