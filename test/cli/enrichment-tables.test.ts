// `svc` with file, geoip and mmdb enrichment tables looked up by a remap transform running in worker
// threads; `svc validate` naming the file, the table and the option of a table that cannot load, and a
// lookup of an unknown table failing at compile time.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MmdbDouble, writeMmdb } from '../host/support/mmdb-writer.js';
import { scratchDir, svc, writeConfig } from './support/svc.js';

const dir = scratchDir();
const users = join(dir, 'users.csv');
writeFileSync(users, 'id,name\n1,Ann\n2,Bob\n');
const city = join(dir, 'city.mmdb');
writeFileSync(
  city,
  writeMmdb({
    databaseType: 'GeoIP2-City',
    ipVersion: 6,
    networks: [
      {
        network: '81.2.69.0/24',
        record: { country: { iso_code: 'GB' }, location: { latitude: new MmdbDouble(51.5) } },
      },
    ],
  }),
);
const nets = join(dir, 'nets.mmdb');
writeFileSync(
  nets,
  writeMmdb({ databaseType: 'Nets', ipVersion: 4, networks: [{ network: '81.2.0.0/16', record: { name: 'uplink' } }] }),
);

const tables = (usersPath: string) => `enrichment_tables:
  users:
    type: file
    file: { path: ${JSON.stringify(usersPath)}, encoding: { type: csv } }
    schema: { id: integer }
  geo: { type: geoip, path: ${JSON.stringify(city)} }
  nets: { type: mmdb, path: ${JSON.stringify(nets)} }
`;

const pipeline = (program: string, usersPath = users) => `${tables(usersPath)}sources:
  in: { type: stdin }
transforms:
  enrich:
    type: remap
    inputs: [in]
    source: |
${program
  .split('\n')
  .map((line) => `      ${line}`)
  .join('\n')}
sinks:
  out: { type: console, inputs: [enrich], encoding: { codec: json } }
`;

const PROGRAM = `. = parse_json!(.message)
.user = get_enrichment_table_record!("users", {"id": .id}, select: ["name"]).name
.geo = get_enrichment_table_record("geo", {"ip": .ip}, select: ["country_code", "latitude"]) ?? "unknown"
.nets = find_enrichment_table_records!("nets", {"ip": .ip})`;

test('a remap transform in worker threads enriches events from file, geoip and mmdb tables', () => {
  const config = writeConfig(dir, 'enrich.yaml', pipeline(PROGRAM));
  const input = '{"id": 1, "ip": "81.2.69.160"}\n{"id": 2, "ip": "10.1.2.3"}\n';
  const { status, stdout, stderr } = svc(['--threads', '2', '--config', config], { input });
  assert.is(status, 0, stderr);
  assert.equal(
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
    [
      {
        id: 1,
        ip: '81.2.69.160',
        user: 'Ann',
        geo: { country_code: 'GB', latitude: 51.5 },
        nets: [{ name: 'uplink' }],
      },
      { id: 2, ip: '10.1.2.3', user: 'Bob', geo: 'unknown', nets: [] },
    ],
  );
});

test('validate: a table that cannot load is named with its file and option', () => {
  const missing = join(dir, 'missing.csv');
  const config = writeConfig(dir, 'missing.yaml', pipeline(PROGRAM, missing));
  const { status, stdout } = svc(['validate', config]);
  assert.is(status, 78);
  assert.ok(
    stdout.includes(`x ${config}: enrichment_tables.users: option "file.path": "${missing}": no such file`),
    stdout,
  );
});

test('a lookup of a table the configuration lacks fails at compile time, listing the tables', () => {
  const config = writeConfig(dir, 'unknown.yaml', pipeline('.x = find_enrichment_table_records!("nope", {"id": 1})'));
  const { status, stdout } = svc(['validate', config]);
  assert.is(status, 78);
  assert.ok(stdout.includes('invalid enum variant for argument "table"'), stdout);
  assert.ok(stdout.includes('expected one of: "users", "geo", "nets"'), stdout);
});

test.run();
