// The functions that read host data (internal metrics, enrichment tables), through compiled programs whose
// instances get a metrics snapshot and an in-memory table set as services.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compileToModule,
  instantiate,
  loadJsFunctions,
  Program,
  Timestamp,
  type RemapValue,
} from '../../../runtime/index.js';
import { defaultServices, type InstanceServices } from '../../../runtime/services.js';
import { memoryEnrichmentTables, type EnrichmentRow, type MetricSample } from '../../../runtime/service-data.js';
import type { FunctionDef } from '../../../compiler/functions/define.js';

const GROUP = [
  'aggregate_svc_metrics',
  'find_enrichment_table_records',
  'find_svc_metrics',
  'get_enrichment_table_record',
  'get_svc_metric',
];

const SNAPSHOT: MetricSample[] = [
  {
    name: 'utilization',
    tags: { component_id: 'parse_nginx', kind: 'transform' },
    value: { type: 'gauge', value: 0.5 },
  },
  {
    name: 'utilization',
    tags: { component_id: 'parse_ssh', kind: 'transform' },
    value: { type: 'gauge', value: 0.25 },
  },
  {
    name: 'utilization',
    tags: { component_id: 'route_ünïcode', kind: 'transform' },
    value: { type: 'gauge', value: 2 },
  },
  { name: 'events_out_total', tags: { component_id: 'in' }, value: { type: 'counter', value: 7 } },
  { name: 'events_out_total', tags: { component_id: 'out' }, value: { type: 'counter', value: 3 } },
  {
    name: 'events_out_total',
    tags: { component_id: 'lag' },
    value: { type: 'histogram', buckets: [{ upperLimit: 1, count: 2 }], count: 2, sum: 1.5 },
  },
];

const date = (text: string) => Timestamp.fromDate(new Date(text));
const USERS: EnrichmentRow[] = [
  { id: 1n, firstname: 'Bob', surname: 'Smith', date_of_birth: date('1985-03-02T00:00:00Z') },
  { id: 2n, firstname: 'Fred', surname: 'Smith', date_of_birth: date('1990-07-12T00:00:00Z') },
  { id: 3n, firstname: 'Zoë', surname: 'ÉLAN', date_of_birth: date('1985-11-30T00:00:00Z') },
  { id: 4n, firstname: 'Any', surname: '*', date_of_birth: date('2000-01-01T00:00:00Z') },
  { id: 5n, firstname: '', surname: '', date_of_birth: null },
];
const LARGE: EnrichmentRow[] = Array.from({ length: 50_000 }, (_, i) => ({ code: `c${i}`, n: BigInt(i) }));

const withServices: Partial<InstanceServices> = {
  metrics: () => SNAPSHOT,
  enrichmentTables: memoryEnrichmentTables({ users: USERS, large: LARGE }),
};

async function program(source: string, services: Partial<InstanceServices> = withServices): Promise<Program> {
  const { module, info } = await compileToModule(source);
  return new Program(
    instantiate(module, {
      functions: await loadJsFunctions(info.jsFunctions),
      services: { ...defaultServices(info), ...services },
    }),
  );
}

/** The program's result, or `error: <message>` when it fails. */
async function run(source: string, services?: Partial<InstanceServices>): Promise<RemapValue> {
  const compiled = await program(source, services);
  try {
    return compiled.run({}).result;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const failsWith = (result: RemapValue, text: string) =>
  assert.ok(typeof result === 'string' && result.startsWith('error: ') && result.endsWith(text), String(result));

test("definition examples compile, and run against this test's host data", async () => {
  for (const name of GROUP) {
    const def = ((await import(`../../../compiler/functions/${name}.js`)) as { default: FunctionDef }).default;
    for (const example of def.examples) {
      const result = await run(example.source);
      assert.ok(
        !(typeof result === 'string' && result.startsWith('error: ')),
        `${name}: ${example.title}: ${String(result)}`,
      );
    }
  }
});

test('get_svc_metric: the first match as an object, null when none, wildcards in tag values', async () => {
  assert.equal(await run('get_svc_metric("utilization", tags: {"component_id": "parse_ssh"})'), {
    kind: 'absolute',
    name: 'utilization',
    tags: { component_id: 'parse_ssh', kind: 'transform' },
    type: 'gauge',
    value: 0.25,
  });
  assert.is(await run('get_svc_metric("utilization", tags: {"component_id": "nope"})'), null);
  assert.is(await run('get_svc_metric("")'), null);
  assert.is(
    await run('get_svc_metric!("utilization", tags: {"component_id": "route_*"}).tags.component_id'),
    'route_ünïcode',
  );
  assert.is(await run('get_vector_metric!("utilization", tags: {"component_id": "*ssh"}).value'), 0.25);
  // A tag the metric lacks never matches, even against `*`.
  assert.is(await run('get_svc_metric("utilization", tags: {"missing": "*"})'), null);
});

test('find_svc_metrics: every match, in snapshot order; a histogram has a null value', async () => {
  assert.equal(
    await run(
      'map_values(find_svc_metrics("utilization", tags: {"component_id": "parse_*"})) -> |m| { m.tags.component_id }',
    ),
    ['parse_nginx', 'parse_ssh'],
  );
  assert.is(await run('length(find_svc_metrics("utilization"))'), 3n);
  assert.equal(await run('find_svc_metrics("nothing")'), []);
  assert.equal(await run('map_values(find_vector_metrics("events_out_total")) -> |m| { [m.type, m.value] }'), [
    ['counter', 7],
    ['counter', 3],
    ['histogram', null],
  ]);
});

test('aggregate_svc_metrics: sum, avg, max, min over counters and gauges; null when none match', async () => {
  assert.is(await run('aggregate_svc_metrics("sum", "utilization")'), 2.75);
  assert.is(await run('aggregate_svc_metrics("avg", "events_out_total")'), 5);
  assert.is(await run('aggregate_svc_metrics("max", "utilization", tags: {"component_id": "parse_*"})'), 0.5);
  assert.is(await run('aggregate_vector_metrics("min", "utilization")'), 0.25);
  assert.is(await run('aggregate_svc_metrics("sum", "nothing")'), null);
  // Only a histogram matches: no value to aggregate.
  assert.is(await run('aggregate_svc_metrics("sum", "events_out_total", tags: {"component_id": "lag"})'), null);
  assert.is(await run('is_float(aggregate_svc_metrics("sum", "events_out_total"))'), true);
});

test('metrics functions: wrong tag kinds and a host without metrics fail with a clear error', async () => {
  failsWith(await run('f = "x"; get_svc_metric(f, tags: {"component_id": 1})'), 'expected string, got integer');
  failsWith(
    await run('find_svc_metrics("utilization")', { metrics: undefined }),
    "internal metrics are not available: only a pipeline's transforms have them",
  );
});

test('find_enrichment_table_records: exact, case-insensitive, select, zero/one/many rows', async () => {
  assert.equal(await run('map_values(find_enrichment_table_records!("users", {"surname": "Smith"})) -> |r| { r.id }'), [
    1n,
    2n,
  ]);
  assert.equal(await run('find_enrichment_table_records!("users", {"surname": "smith"})'), []);
  assert.equal(
    await run(
      'find_enrichment_table_records!("users", {"surname": "smith"}, select: ["firstname", "id"], case_sensitive: false)',
    ),
    [
      { firstname: 'Bob', id: 1n },
      { firstname: 'Fred', id: 2n },
    ],
  );
  // Unicode case folding, and an empty string is a value like any other.
  assert.equal(
    await run(
      'find_enrichment_table_records!("users", {"surname": "élan"}, select: ["firstname"], case_sensitive: false)',
    ),
    [{ firstname: 'Zoë' }],
  );
  assert.equal(await run('find_enrichment_table_records!("users", {"surname": ""}, select: ["id"])'), [{ id: 5n }]);
  // Kinds must agree: 1.0 is not the integer 1.
  assert.equal(await run('find_enrichment_table_records!("users", {"id": 1.0})'), []);
  assert.equal(
    await run('find_enrichment_table_records!("users", {"id": 1, "surname": "Smith"}, select: ["nonexistent"])'),
    [{}],
  );
});

test('find_enrichment_table_records: wildcard rows and date ranges', async () => {
  assert.equal(
    await run(
      'map_values(find_enrichment_table_records!("users", {"surname": "Jones"}, wildcard: "*")) -> |r| { r.id }',
    ),
    [4n],
  );
  assert.equal(
    await run(
      'map_values(find_enrichment_table_records!("users", {"date_of_birth": {"from": t\'1985-01-01T00:00:00Z\', "to": t\'1985-12-31T00:00:00Z\'}})) -> |r| { r.id }',
    ),
    [1n, 3n],
  );
  // The bounds are inclusive; a row without a timestamp never matches.
  assert.equal(
    await run(
      'find_enrichment_table_records!("users", {"date_of_birth": {"from": t\'1990-07-12T00:00:00Z\', "to": t\'1990-07-12T00:00:00Z\'}}, select: ["id"])',
    ),
    [{ id: 2n }],
  );
  failsWith(
    await run(
      'find_enrichment_table_records!("users", {"date_of_birth": {"from": "1985", "to": t\'1985-12-31T00:00:00Z\'}})',
    ),
    'from in condition must be a timestamp',
  );
});

test("get_enrichment_table_record: exactly one row, else VRL's errors", async () => {
  assert.equal(await run('get_enrichment_table_record!("users", {"id": 3}, select: ["surname"])'), { surname: 'ÉLAN' });
  failsWith(await run('get_enrichment_table_record!("users", {"id": 99})'), 'no rows found');
  failsWith(await run('get_enrichment_table_record!("users", {"surname": "Smith"})'), 'More than 1 row found');
  assert.is(await run('get_enrichment_table_record("users", {"id": 99}) ?? "fallback"'), 'fallback');
  failsWith(await run('get_enrichment_table_record!("nope", {"id": 1})'), 'table nope not loaded');
  failsWith(
    await run('get_enrichment_table_record!("users", {"id": 1})', { enrichmentTables: undefined }),
    'table users not loaded',
  );
  failsWith(
    await run('s = 1; get_enrichment_table_record!("users", {"id": 1}, select: [s, "id"])'),
    'expected string, got integer',
  );
});

test('a large table: one row found among 50 000', async () => {
  assert.equal(await run('get_enrichment_table_record!("large", {"code": "c49999"})'), { code: 'c49999', n: 49_999n });
});

test.run();
