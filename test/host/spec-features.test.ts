// One configuration using what spec 2 adds to a plain pipeline, run as a user runs it: a secret from each
// backend, an enrichment table of each type (file, geoip, mmdb, and memory, written by the pipeline itself)
// looked up in remap, a Java stack trace joined by the file source's `multiline`, TLS between an http sink and
// an http_server source of the same process with the client's certificate verified, the sink's requests
// through a proxy (a CONNECT tunnel), and the `eventdb_metrics` source scraping a stats document.
// `svc validate` passes on it and names the file, the component and the option of each broken variant (a
// missing secret, a CSV that does not load, a certificate that is not one).

import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCertificates } from './support/certificates.js';
import { MmdbDouble, writeMmdb } from './support/mmdb-writer.js';
import { localProxy } from './support/proxy-server.js';
import { secretBackends } from './support/secret-backends.js';
import { freePort, runSvc, startSvc, tempDir, waitFor } from './support/svc.js';

const SECRETS = { file: 'f1le-t0ken', directory: 'd1r-t0ken', exec: 'ex3c-t0ken', cloud: 'cl0ud-t0ken' };

const TRACE = [
  '2026-11-28 10:00:00 ERROR request failed',
  'java.lang.IllegalStateException: boom',
  '    at com.example.Handler.handle(Handler.java:42)',
  '    at com.example.Server.run(Server.java:7)',
  'Caused by: java.io.IOException: closed',
  '    ... 2 more',
];

/** An event database's `/stats`. */
const STATS = {
  proc: { id: 7, mem: 1000, diskIo: { readBytes: 1, writtenBytes: 2, readOps: 3, writeOps: 4 } },
  sys: { freeMem: 5 },
};

/** A local stand-in for the cloud's Secrets Manager holding the secret `app`, and for an event database. */
async function cloudServer() {
  const server = createServer((request, response) => {
    const answer =
      request.url === '/stats' ? STATS : { Name: 'app', SecretString: JSON.stringify({ token: SECRETS.cloud }) };
    request.resume().on('end', () => response.end(JSON.stringify(answer)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Every file the configuration reads, and the configuration. */
async function setUp(cloud: string, proxy = 'http://127.0.0.1:9') {
  const dir = tempDir();
  const certificates = makeCertificates();
  const secrets = secretBackends(dir, SECRETS, cloud);
  writeFileSync(join(dir, 'users.csv'), 'id,name\n1,Ann\n2,Bob\n');
  const city = writeMmdb({
    databaseType: 'GeoIP2-City',
    ipVersion: 6,
    networks: [
      {
        network: '81.2.69.0/24',
        record: { country: { iso_code: 'GB' }, location: { latitude: new MmdbDouble(51.5) } },
      },
    ],
  });
  writeFileSync(join(dir, 'city.mmdb'), city);
  writeFileSync(
    join(dir, 'nets.mmdb'),
    writeMmdb({
      databaseType: 'Nets',
      ipVersion: 4,
      networks: [{ network: '81.2.0.0/16', record: { name: 'uplink' } }],
    }),
  );
  writeFileSync(join(dir, 'app.log'), '');
  // The memory table's row, written by the pipeline itself from this file.
  writeFileSync(join(dir, 'seed.log'), '{"ann": "admin"}\n');
  const port = await freePort();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `data_dir: ${join(dir, 'data')}
${secrets}enrichment_tables:
  users:
    type: file
    file: { path: ${join(dir, 'users.csv')}, encoding: { type: csv } }
    schema: { id: integer }
  geo: { type: geoip, path: ${join(dir, 'city.mmdb')} }
  nets: { type: mmdb, path: ${join(dir, 'nets.mmdb')} }
  roles:
    type: memory
    ttl: 600
    inputs: [seed_rows]
    source_config: { source_key: roles_export, export_interval: 1 }
sources:
  seed: { type: file, include: [${join(dir, 'seed.log')}], read_from: beginning }
  app:
    type: file
    include: [${join(dir, 'app.log')}]
    glob_minimum_cooldown_ms: 50
    multiline:
      start_pattern: '^\\d{4}-'
      condition_pattern: '^\\d{4}-'
      mode: halt_before
      timeout_ms: 300
  web:
    type: http_server
    address: 127.0.0.1:${port}
    decoding: { codec: json }
    tls:
      enabled: true
      crt_file: ${certificates.serverCrt}
      key_file: ${certificates.serverKey}
      ca_file: ${certificates.ca}
      verify_certificate: true
  db: { type: eventdb_metrics, endpoint: ${cloud}/stats, scrape_interval_secs: 60 }
transforms:
  seed_rows: { type: remap, inputs: [seed], source: '. = object!(parse_json!(.message))' }
  enrich:
    type: remap
    inputs: [app]
    source: |
      .user = get_enrichment_table_record!("users", {"id": 1}, select: ["name"]).name
      .country = get_enrichment_table_record!("geo", {"ip": "81.2.69.160"}).country_code
      .net = get_enrichment_table_record!("nets", {"ip": "81.2.69.160"}).name
      .role = get_enrichment_table_record!("roles", {"key": "ann"}).value
      .secrets = ["SECRET[f.token]", "SECRET[d.token]", "SECRET[e.token]", "SECRET[c.token]"]
      . = {"message": .message, "user": .user, "country": .country, "net": .net, "role": .role, "secrets": .secrets}
sinks:
  forward:
    type: http
    inputs: [enrich]
    uri: https://localhost:${port}/
    encoding: { codec: json }
    batch: { timeout_secs: 0.1 }
    proxy: { https: ${proxy} }
    tls:
      ca_file: ${certificates.ca}
      crt_file: ${certificates.clientCrt}
      key_file: ${certificates.clientKey}
  out:
    type: console
    inputs: [web]
    encoding: { codec: json }
  roles_file:
    type: file
    inputs: [roles_export]
    path: ${join(dir, 'roles.ndjson')}
    encoding: { codec: json }
  metrics:
    type: file
    inputs: [db]
    path: ${join(dir, 'metrics.ndjson')}
    encoding: { codec: json }
`,
  );
  return { dir, config, certificates };
}

test('secrets, enrichment tables, multiline, mutual TLS through a proxy and eventdb_metrics in one pipeline', async () => {
  const cloud = await cloudServer();
  const proxy = await localProxy();
  try {
    const { dir, config } = await setUp(cloud.endpoint, proxy.uri);
    const validate = await runSvc(['validate', config]);
    assert.is(validate.status, 0, validate.stdout + validate.stderr);

    const run = startSvc(['--config', config]);
    // The memory table has its row once its source exports it: the log lines are written after.
    const roles = join(dir, 'roles.ndjson');
    await waitFor(
      () => existsSync(roles) && readFileSync(roles, 'utf8').includes('"key":"ann"'),
      () => `the memory table's export in ${roles}; stderr: ${run.stderr()}`,
    );
    writeFileSync(join(dir, 'app.log'), `${TRACE.join('\n')}\n2026-11-28 10:00:01 INFO recovered\n`);
    const lines = await run.waitForLines(2).catch((error: Error) => {
      run.child.kill('SIGKILL');
      throw error;
    });
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const expected = (message: string) => ({
      message,
      user: 'Ann',
      country: 'GB',
      net: 'uplink',
      role: 'admin',
      secrets: Object.values(SECRETS),
    });
    run.child.kill('SIGTERM');
    // http_server adds its own fields (path, source_type, timestamp): the sent ones are compared.
    assert.equal(
      events.map(({ message, user, country, net, role, secrets }) => ({ message, user, country, net, role, secrets })),
      [expected(TRACE.join('\n')), expected('2026-11-28 10:00:01 INFO recovered')],
    );
    const { status, stderr } = await run.exited;
    assert.is(status, 0, stderr);
    assert.not.ok(
      Object.values(SECRETS).some((secret) => stderr.includes(secret)),
      'no secret in the logs',
    );
    assert.ok(proxy.connects.length > 0 && proxy.connects.every((target) => /^localhost:\d+$/.test(target)));
    const metrics = readFileSync(join(dir, 'metrics.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; namespace: string; tags: { id: string } });
    assert.equal(metrics.map(({ name, namespace, tags }) => `${namespace}_${name} id=${tags.id}`).sort(), [
      'eventdb_disk_read_bytes_total id=7',
      'eventdb_disk_read_ops_total id=7',
      'eventdb_disk_write_ops_total id=7',
      'eventdb_disk_written_bytes_total id=7',
      'eventdb_memory_free_bytes id=7',
      'eventdb_process_memory_used_bytes id=7',
    ]);
  } finally {
    cloud.close();
    await proxy.close();
  }
});

test('validate names the file, the component and the option of a missing secret, a bad CSV, a bad certificate', async () => {
  const cloud = await cloudServer();
  try {
    const { dir, config, certificates } = await setUp(cloud.endpoint);
    const failing = async (breakIt: () => void, restore: () => void, problem: RegExp) => {
      breakIt();
      const { status, stdout } = await runSvc(['validate', config]);
      restore();
      assert.is(status, 78, stdout);
      assert.match(stdout, problem);
    };
    await failing(
      () => writeFileSync(join(dir, 'secrets.json'), '{}'),
      () => writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ token: SECRETS.file })),
      /x .*svc\.yaml: secret\.f \(file\): key "token" .*\(option "path"\)/,
    );
    await failing(
      () => writeFileSync(join(dir, 'users.csv'), 'id,name\nnot a number,Ann\n'),
      () => writeFileSync(join(dir, 'users.csv'), 'id,name\n1,Ann\n2,Bob\n'),
      /x .*svc\.yaml: enrichment_tables\.users: option "schema\.id"/,
    );
    await failing(
      () => writeFileSync(certificates.serverCrt, 'not a certificate'),
      () => undefined,
      /x .*svc\.yaml: sources\.web: tls\.crt_file: .* is not a PEM or DER X\.509 certificate/,
    );
  } finally {
    cloud.close();
  }
});

test.run();
