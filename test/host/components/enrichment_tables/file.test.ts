// The file enrichment table: its CSV read with Vector's options and `schema` coercions, and looked up through
// the thread's tables as remap programs look them up.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Timestamp } from '../../../../abi/values.js';
import file from '../../../../host/components/enrichment_tables/file.js';
import { opened } from '../../support/enrichment.js';
import { globalSchema } from '../../../../host/config/global.js';
import { MetricsRegistry } from '../../../../host/telemetry/metrics.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-file-table-'));
const globals = globalSchema.parse({ timezone: 'UTC' });
const metrics = new MetricsRegistry();

function csv(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resolved',
    (error: Error) => error.message,
  );
}

async function load(options: Record<string, unknown>) {
  const parsed = file.options.parse(options);
  return await opened(await file.load(parsed, { id: 'users', globals, metrics }));
}

const USERS = csv(
  'users.csv',
  'id,name,active,score,born,seen\r\n1,Ann,true,1.5,1985-03-01,2020-12-01 02:37:54\n2,"Bob ""B"", Jr",no,2,1990-07-04,2021-01-01 00:00:00\n\n3,ann,1,-0.25,1985-11-30,2022-06-30 12:00:00\n',
);
const SCHEMA = { id: 'integer', active: 'boolean', score: 'float', born: 'date', seen: 'timestamp|%F %T' };

test('rows: quoted fields, CRLF and LF, blank lines skipped; schema coercions', async () => {
  const table = await load({ file: { path: USERS, encoding: { type: 'csv' } }, schema: SCHEMA });
  const rows = table.find([], undefined, true, undefined);
  assert.equal(
    rows.map((row) => row.name),
    ['Ann', 'Bob "B", Jr', 'ann'],
  );
  assert.equal(rows[0], {
    id: 1n,
    name: 'Ann',
    active: true,
    score: 1.5,
    born: new Timestamp(BigInt(Date.UTC(1985, 2, 1)) * 1_000_000n),
    seen: new Timestamp(BigInt(Date.UTC(2020, 11, 1, 2, 37, 54)) * 1_000_000n),
  });
  assert.equal([rows[1]!.active, rows[2]!.active], [false, true]);
});

test('lookups: exact (through the index), case-insensitive, select, wildcard, date range; get wants one row', async () => {
  const table = await load({ file: { path: USERS, encoding: { type: 'csv' } }, schema: SCHEMA });
  const equals = (field: string, value: unknown) => ({ type: 'equals' as const, field, value: value as never });
  assert.equal(table.find([equals('name', 'ann')], ['id'], true, undefined), [{ id: 3n }]);
  assert.equal(table.find([equals('name', 'ANN')], ['id'], false, undefined), [{ id: 1n }, { id: 3n }]);
  assert.equal(table.find([equals('id', 2n)], ['name'], true, undefined), [{ name: 'Bob "B", Jr' }]);
  // 2 is an integer column: the float 2.5 matches nothing.
  assert.equal(table.find([equals('id', 2.5)], undefined, true, undefined), []);
  assert.equal(table.find([equals('name', 'Zed')], ['id'], true, 'Ann'), [{ id: 1n }]);
  const born = (from: number, to: number) => ({
    type: 'between_dates' as const,
    field: 'born',
    from: new Timestamp(BigInt(from) * 1_000_000n),
    to: new Timestamp(BigInt(to) * 1_000_000n),
  });
  const in1985 = born(Date.UTC(1985, 0, 1), Date.UTC(1985, 11, 31));
  assert.equal(table.find([in1985], ['id'], true, undefined), [{ id: 1n }, { id: 3n }]);
  assert.equal(table.get([equals('name', 'ann'), in1985], ['id'], true, undefined), { id: 3n });
});

test('get: no rows found, More than 1 row found', async () => {
  const table = await load({ file: { path: USERS, encoding: { type: 'csv' } } });
  const name = (value: string) => [{ type: 'equals' as const, field: 'name', value }];
  assert.equal(table.get(name('Ann'), ['id'], true, undefined), { id: '1' });
  assert.throws(() => table.get(name('Nobody'), undefined, true, undefined), /^no rows found$/);
  assert.throws(() => table.get(name('ann'), undefined, false, undefined), /^More than 1 row found$/);
});

test('without headers the columns are "0", "1", ...; another delimiter', async () => {
  const path = csv('plain.tsv', 'a\t1\nb\t2\n');
  const table = await load({
    file: { path, encoding: { type: 'csv', delimiter: '\t', include_headers: false } },
    schema: { '1': 'int' },
  });
  assert.equal(table.find([{ type: 'equals', field: '0', value: 'b' }], undefined, true, undefined), [
    { '0': 'b', '1': 2n },
  ]);
});

test('errors name the option and the file: missing file, ragged CSV, a field the schema cannot coerce', async () => {
  const missing = join(dir, 'missing.csv');
  assert.is(
    await failure(load({ file: { path: missing, encoding: { type: 'csv' } } })),
    `option "file.path": "${missing}": no such file`,
  );
  const ragged = csv('ragged.csv', 'a,b\n1,2\n3\n');
  assert.is(
    await failure(load({ file: { path: ragged, encoding: { type: 'csv' } } })),
    `option "file.path": "${ragged}": invalid CSV: line 3: found a record with 1 fields, but the previous record has 2 fields`,
  );
  assert.is(
    await failure(load({ file: { path: USERS, encoding: { type: 'csv' } }, schema: { name: 'integer' } })),
    `option "schema.name": "${USERS}": row 1: invalid integer "Ann"`,
  );
  assert.not.ok(
    file.options.safeParse({ file: { path: USERS, encoding: { type: 'csv' } }, schema: { a: 'nope' } }).success,
  );
});

test.run();
