// Secrets end to end: svc runs a configuration using a secret from each backend in a remap program, and
// `svc validate` checks it; a broken secret fails the start (exit 78) and validate, naming file, backend
// and option; SIGHUP re-reads the secrets, and a secret error during a reload keeps the running pipeline.

import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { secretBackends } from './support/secret-backends.js';
import { runSvc, startSvc, tempDir } from './support/svc.js';

const VALUES = { file: 'f1le-t0ken', directory: 'd1r-t0ken', exec: 'ex3c-t0ken', cloud: 'cl0ud-t0ken' };

/** A local stand-in for the cloud's Secrets Manager holding one secret, `app`. */
async function cloudServer() {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const known =
        request.headers['x-amz-target'] === 'secretsmanager.GetSecretValue' &&
        /^AWS4-HMAC-SHA256 Credential=AKID\//.test(request.headers.authorization ?? '') &&
        body === '{"SecretId":"app"}';
      response
        .writeHead(known ? 200 : 400)
        .end(
          JSON.stringify(
            known
              ? { Name: 'app', SecretString: JSON.stringify({ token: VALUES.cloud }) }
              : { __type: 'ResourceNotFoundException', Message: 'no such secret' },
          ),
        );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** A directory with a secret of each backend, and a config whose remap copies each into the event. */
function setUp(endpoint: string): { dir: string; config: string } {
  const dir = tempDir();
  const secrets = secretBackends(dir, VALUES, endpoint);
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `data_dir: ${join(dir, 'data')}
${secrets}sources:
  in: { type: stdin }
transforms:
  t:
    type: remap
    inputs: [in]
    source: |
      .file = "SECRET[f.token]"
      .directory = "SECRET[d.token]"
      .exec = "SECRET[e.token]"
      .cloud = "SECRET[c.token]"
      del(.timestamp)
sinks:
  out: { type: console, inputs: [t], encoding: { codec: json } }
`,
  );
  mkdirSync(join(dir, 'data'));
  return { dir, config };
}

const notLeaked = (text: string) => Object.values(VALUES).filter((value) => text.includes(value));

test('a secret from each backend reaches the remap program; validate passes without printing one', async () => {
  const cloud = await cloudServer();
  try {
    const { config } = setUp(cloud.endpoint);
    const run = await runSvc(['--config', config], { stdin: 'hello\n' });
    assert.is(run.status, 0, run.stderr);
    const event = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal({ file: event.file, directory: event.directory, exec: event.exec, cloud: event.cloud }, VALUES);
    assert.equal(notLeaked(run.stderr), [], 'no secret in the logs');

    const validate = await runSvc(['validate', config]);
    assert.is(validate.status, 0, validate.stdout + validate.stderr);
    assert.match(validate.stdout, /Validated/);
    assert.equal(notLeaked(validate.stdout + validate.stderr), []);
  } finally {
    cloud.close();
  }
});

test('a broken secret: the start exits 78 and validate fails, naming the file, the backend, the option', async () => {
  const cloud = await cloudServer();
  try {
    const { dir, config } = setUp(cloud.endpoint);
    writeFileSync(join(dir, 'secrets.json'), '{"other": "x"}');
    const start = await runSvc(['--config', config], { stdin: 'hello\n' });
    assert.is(start.status, 78);
    const problem = `${config}: secret.f (file): key "token" (SECRET[f.token] at ${config}:18): not found in "${join(dir, 'secrets.json')}" (option "path")`;
    assert.ok(start.stderr.includes(`Configuration error: ${problem}`), start.stderr);
    const validate = await runSvc(['validate', config]);
    assert.is(validate.status, 78);
    assert.ok(validate.stdout.includes(`x ${problem}\n`), validate.stdout);
  } finally {
    cloud.close();
  }
});

test('SIGHUP re-reads the secrets; a secret error during a reload keeps the running configuration', async () => {
  const cloud = await cloudServer();
  try {
    const { dir, config } = setUp(cloud.endpoint);
    const run = startSvc(['--config', config]);
    const next = async (count: number) => JSON.parse((await run.waitForLines(count))[count - 1]!).file as string;
    run.child.stdin!.write('one\n');
    assert.is(await next(1), VALUES.file);

    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ token: 'r0tated-t0ken' }));
    run.child.kill('SIGHUP');
    await run.waitForStderr(/svc has reloaded\./);
    run.child.stdin!.write('two\n');
    assert.is(await next(2), 'r0tated-t0ken');

    writeFileSync(join(dir, 'secrets.json'), 'not json');
    run.child.kill('SIGHUP');
    await run.waitForStderr(/Failed to load config files, reload aborted\./);
    run.child.stdin!.write('three\n');
    assert.is(await next(3), 'r0tated-t0ken', 'the running pipeline goes on');
    run.child.stdin!.end();
    const { status, stderr } = await run.exited;
    assert.is(status, 0, stderr);
    assert.match(stderr, /Configuration error: .*secret\.f \(file\): option "path": ".*secrets\.json" is not JSON/);
    assert.equal(notLeaked(stderr).concat(stderr.includes('r0tated-t0ken') ? ['r0tated-t0ken'] : []), []);
  } finally {
    cloud.close();
  }
});

test.run();
