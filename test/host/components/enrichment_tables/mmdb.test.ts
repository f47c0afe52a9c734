// The geoip and mmdb enrichment tables on tiny databases written by the test's MMDB writer: Vector's geoip
// fields per database type, the raw record for mmdb, and the checks of the condition and the file.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import geoip from '../../../../host/components/enrichment_tables/geoip.js';
import mmdb from '../../../../host/components/enrichment_tables/mmdb.js';
import { globalSchema } from '../../../../host/config/global.js';
import { MetricsRegistry } from '../../../../host/telemetry/metrics.js';
import { opened } from '../../support/enrichment.js';
import { MmdbDouble, writeMmdb, type MmdbDatabase } from '../../support/mmdb-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-mmdb-table-'));
const globals = globalSchema.parse({});
const metrics = new MetricsRegistry();

function database(name: string, content: MmdbDatabase): string {
  const path = join(dir, name);
  writeFileSync(path, writeMmdb(content));
  return path;
}

const CITY = database('city.mmdb', {
  databaseType: 'GeoLite2-City',
  ipVersion: 6,
  networks: [
    {
      network: '2.125.160.0/24',
      record: {
        city: { names: { en: 'Boxford', de: 'Boxford (DE)' } },
        continent: { code: 'EU' },
        country: { iso_code: 'GB', names: { en: 'United Kingdom', de: 'Vereinigtes Königreich' } },
        location: { latitude: new MmdbDouble(51.75), longitude: new MmdbDouble(-1.25), time_zone: 'Europe/London' },
        postal: { code: 'OX1' },
        subdivisions: [
          { iso_code: 'ENG', names: { en: 'England' } },
          { iso_code: 'WBK', names: { en: 'West Berkshire' } },
        ],
      },
    },
    { network: '2001:db8::/32', record: { country: { iso_code: 'ZZ' }, location: { metro_code: 807 } } },
  ],
});

const ip = (value: string) => [{ type: 'equals' as const, field: 'ip', value }];

test('geoip, City database: Vector fields, names in the locale, null for what the record lacks', async () => {
  const table = await opened(await geoip.load(geoip.options.parse({ path: CITY }), { id: 'geo', globals, metrics }));
  assert.equal(table.get(ip('2.125.160.216'), undefined, true, undefined), {
    city_name: 'Boxford',
    continent_code: 'EU',
    country_code: 'GB',
    country_name: 'United Kingdom',
    timezone: 'Europe/London',
    latitude: 51.75,
    longitude: -1.25,
    metro_code: null,
    region_name: 'West Berkshire',
    region_code: 'WBK',
    postal_code: 'OX1',
  });
  assert.equal(table.find(ip('2001:db8::1'), ['country_code', 'metro_code', 'city_name'], true, undefined), [
    { country_code: 'ZZ', metro_code: 807n, city_name: null },
  ]);
  const german = await opened(
    await geoip.load(geoip.options.parse({ path: CITY, locale: 'de' }), { id: 'geo', globals, metrics }),
  );
  assert.equal(german.get(ip('2.125.160.1'), ['country_name'], true, undefined), {
    country_name: 'Vereinigtes Königreich',
  });
});

test("geoip lookups: Vector's errors for a missing IP, a bad condition; find gives no rows", async () => {
  const table = await opened(await geoip.load(geoip.options.parse({ path: CITY }), { id: 'geo', globals, metrics }));
  assert.equal(table.find(ip('10.0.0.1'), undefined, true, undefined), []);
  assert.throws(() => table.get(ip('10.0.0.1'), undefined, true, undefined), /^IP not found$/);
  assert.throws(() => table.get(ip('not an ip'), undefined, true, undefined), /^Invalid IP address$/);
  assert.throws(() => table.get([], undefined, true, undefined), /IP condition must be specified/);
  assert.throws(
    () => table.get([...ip('1.1.1.1'), ...ip('1.1.1.2')], undefined, true, undefined),
    /Only one condition/,
  );
});

test('geoip, ASN and Connection-Type databases; other types are refused (use mmdb)', async () => {
  const asn = database('asn.mmdb', {
    databaseType: 'GeoLite2-ASN',
    ipVersion: 4,
    networks: [
      {
        network: '1.128.0.0/11',
        record: { autonomous_system_number: 1221, autonomous_system_organization: 'Telstra' },
      },
    ],
  });
  const asnTable = await opened(await geoip.load(geoip.options.parse({ path: asn }), { id: 'asn', globals, metrics }));
  assert.equal(asnTable.get(ip('1.130.0.1'), undefined, true, undefined), {
    autonomous_system_number: 1221n,
    autonomous_system_organization: 'Telstra',
    isp: null,
    organization: null,
  });
  const connection = database('connection.mmdb', {
    databaseType: 'GeoIP2-Connection-Type',
    ipVersion: 4,
    networks: [{ network: '1.0.0.0/24', record: { connection_type: 'Cable/DSL' } }],
  });
  const connectionTable = await opened(
    await geoip.load(geoip.options.parse({ path: connection }), { id: 'ct', globals, metrics }),
  );
  assert.equal(connectionTable.get(ip('1.0.0.9'), undefined, true, undefined), { connection_type: 'Cable/DSL' });
  const other = database('other.mmdb', { databaseType: 'My-Data', ipVersion: 4, networks: [] });
  const refused = await geoip.load(geoip.options.parse({ path: other }), { id: 'x', globals, metrics }).then(
    () => 'loaded',
    (error: Error) => error.message,
  );
  assert.is(
    refused,
    `option "path": "${other}": unsupported MMDB database type "My-Data": use the \`mmdb\` enrichment table for it`,
  );
});

test('mmdb: the record as stored (select keeps top-level fields); a file that is no MMDB is refused', async () => {
  const path = database('custom.mmdb', {
    databaseType: 'My-Data',
    ipVersion: 6,
    networks: [
      {
        network: '192.168.0.0/16',
        record: { name: 'office', tags: ['a', 'b'], floor: 3, ratio: new MmdbDouble(0.5), vpn: true, big: 2n ** 40n },
      },
    ],
  });
  const table = await opened(await mmdb.load(mmdb.options.parse({ path }), { id: 'custom', globals, metrics }));
  assert.equal(table.get(ip('192.168.3.4'), undefined, true, undefined), {
    name: 'office',
    tags: ['a', 'b'],
    floor: 3n,
    ratio: 0.5,
    vpn: true,
    big: 2n ** 40n,
  });
  assert.equal(table.find(ip('192.168.3.4'), ['name', 'vpn'], true, undefined), [{ name: 'office', vpn: true }]);
  assert.equal(table.find(ip('::1'), undefined, true, undefined), []);
  const junk = join(dir, 'junk.mmdb');
  writeFileSync(junk, 'not a database');
  const refused = await mmdb.load(mmdb.options.parse({ path: junk }), { id: 'j', globals, metrics }).then(
    () => 'loaded',
    (error: Error) => error.message,
  );
  assert.match(refused, new RegExp(`^option "path": "${junk}": `));
});

test.run();
