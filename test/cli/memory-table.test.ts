// `svc` with a memory enrichment table: events written into it by its sink, looked up by a remap transform of
// another branch running in a worker thread, exported by its source, its rows expiring on its `expired`
// output, its metrics; configuration errors naming the file, the table and the option.

import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startSvc } from '../host/support/svc.js';
import { waitFor } from '../support/wait-for.js';
import { SVC_MAIN, scratchDir, svc, svcEnv, writeConfig } from './support/svc.js';

const dir = scratchDir();

const PIPELINE = `enrichment_tables:
  cache:
    type: memory
    inputs: [users]
    ttl: 1
    scan_interval: 1
    source_config: { source_key: cache_out, export_interval: 1, export_expired_items: true }
sources:
  in: { type: stdin }
  ticks: { type: demo_logs, format: shuffle, lines: [tick], interval: 0.1 }
  metrics: { type: internal_metrics, scrape_interval_secs: 0.5 }
transforms:
  users:
    type: remap
    inputs: [in]
    source: . = parse_json!(.message)
  lookup:
    type: remap
    inputs: [ticks]
    source: |
      row = get_enrichment_table_record("cache", {"key": "ann"}) ?? {}
      . = {"kind": "lookup", "name": row.value.name, "ttl": row.ttl}
  exported:
    type: remap
    inputs: [cache_out]
    source: .kind = "export"
  expired:
    type: remap
    inputs: [cache_out.expired]
    source: .kind = "expired"
  table_metrics:
    type: filter
    inputs: [metrics]
    condition: starts_with(string(.name) ?? "", "memory_enrichment_table") && .tags.component_id == "cache"
sinks:
  out:
    type: console
    inputs: [lookup, exported, expired, table_metrics]
    encoding: { codec: json }
`;

test('written by its sink, looked up from a worker, exported by its source, expired on its port, metered', async () => {
  const config = writeConfig(dir, 'memory.yaml', PIPELINE);
  const child = spawn(process.execPath, [SVC_MAIN, '--threads', '2', '--config', config], {
    env: svcEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const has = (match: (line: Record<string, unknown>) => boolean) => lines().some(match);
  const metric = (name: string) => (line: Record<string, unknown>) => line.name === name;
  try {
    child.stdin.write('{"ann": {"name": "Ann"}}\n');
    await waitFor(
      () => has((line) => line.kind === 'lookup' && line.name === 'Ann'),
      () => `a lookup finding the row\n${stdout}\n${stderr}`,
    );
    await waitFor(
      () =>
        has((line) => line.kind === 'export' && line.key === 'ann') &&
        has((line) => line.kind === 'expired' && line.key === 'ann') &&
        ['reads_total', 'insertions_total', 'flushes_total', 'ttl_expirations', 'objects_count'].every((name) =>
          has(metric(`memory_enrichment_table_${name}`)),
        ),
      () => `an export, an expired row and the metrics\n${stdout}\n${stderr}`,
    );
    const found = lines().find((line) => line.kind === 'lookup' && line.name === 'Ann')!;
    assert.ok(found.ttl === 0 || found.ttl === 1, JSON.stringify(found));
    const exported = lines().find((line) => line.kind === 'export' && line.key === 'ann')!;
    assert.equal(exported.value, { name: 'Ann' });
    assert.is(exported.source_type, 'memory');
    // Once expired, the row is gone for the lookups too.
    const expiredAt = lines().findIndex((line) => line.kind === 'expired');
    await waitFor(
      () => lines().some((line, index) => index > expiredAt && line.kind === 'lookup' && line.name === null),
      () => `a lookup after the expiry finding nothing\n${stdout}`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
});

/** A table written from stdin and read by lookups tagged with `version`; `table`: more of its options. */
const reloadable = (version: number, table = '') => `enrichment_tables:
  cache: { type: memory, inputs: [users]${table} }
sources:
  in: { type: stdin }
  ticks: { type: demo_logs, format: shuffle, lines: [tick], interval: 0.1 }
transforms:
  users: { type: remap, inputs: [in], source: . = parse_json!(.message) }
  lookup:
    type: remap
    inputs: [ticks]
    source: |
      row = get_enrichment_table_record("cache", {"key": "ann"}) ?? {}
      . = {"version": ${version}, "name": row.value.name}
sinks:
  out: { type: console, inputs: [lookup], encoding: { codec: json } }
`;

test('reload: a table whose options are unchanged (but inputs) keeps its rows; changed, it starts empty unless preserve-state', async () => {
  const config = writeConfig(dir, 'reload.yaml', reloadable(1));
  const run = startSvc(['--threads', '2', '--config', config]);
  // stdin stays open: a sink whose inputs all ended keeps its closed buffer through a reload that gives it a
  // new input (a topology matter, apart from the table).
  run.child.stdin!.write('{"ann": {"name": "Ann"}}\n');
  const seen = (version: number, name: string | null) =>
    run
      .stdout()
      .split('\n')
      .some((line) => line === JSON.stringify({ name, version }));
  try {
    await waitFor(
      () => seen(1, 'Ann'),
      () => run.stdout() + run.stderr(),
    );
    writeConfig(dir, 'reload.yaml', reloadable(2).replace('inputs: [users]', 'inputs: [users, ticks]'));
    run.child.kill('SIGHUP');
    await waitFor(
      () => seen(2, 'Ann'),
      () => run.stdout() + run.stderr(),
    );
    writeConfig(dir, 'reload.yaml', reloadable(3, ', ttl: 601, reload_behavior: preserve-state'));
    run.child.kill('SIGHUP');
    await waitFor(
      () => seen(3, 'Ann'),
      () => run.stdout() + run.stderr(),
    );
    writeConfig(dir, 'reload.yaml', reloadable(4, ', ttl: 602'));
    run.child.kill('SIGHUP');
    await waitFor(
      () => seen(4, null),
      () => run.stdout() + run.stderr(),
    );
    assert.not.ok(seen(4, 'Ann'));
  } finally {
    run.child.kill('SIGTERM');
    await run.exited;
  }
});

test('validate: its options and inputs are checked, errors name the file, the table and the option', () => {
  const config = writeConfig(
    dir,
    'bad.yaml',
    `enrichment_tables:
  cache: { type: memory, ttl: -1, inputs: [nope] }
  other: { type: memory, source_config: { export_interval: 5 } }
sources:
  in: { type: stdin }
sinks:
  out: { type: console, inputs: [in], encoding: { codec: json } }
`,
  );
  const { status, stdout } = svc(['validate', '--no-environment', config]);
  assert.is(status, 78);
  assert.ok(stdout.includes(`${config}: enrichment_tables.cache: option "ttl": `), stdout);
  assert.ok(
    stdout.includes(`${config}: enrichment_tables.other: missing required option "source_config.source_key"`),
    stdout,
  );

  const inputs = writeConfig(
    dir,
    'inputs.yaml',
    `enrichment_tables:
  cache: { type: memory, inputs: [nope] }
sources:
  in: { type: stdin }
sinks:
  out: { type: console, inputs: [in], encoding: { codec: json } }
`,
  );
  const graph = svc(['validate', '--no-environment', inputs]);
  assert.is(graph.status, 78);
  assert.ok(graph.stdout.includes(`Input "nope" for sink "cache" doesn't match any components.`), graph.stdout);
});

test('graph: the table is a sink fed by its inputs and its source feeds the components reading it', () => {
  const config = writeConfig(dir, 'graph.yaml', PIPELINE);
  const { status, stdout, stderr } = svc(['graph', '--config', config]);
  assert.is(status, 0, stderr);
  assert.ok(stdout.includes('"cache" [shape="invtrapezium"]'), stdout);
  assert.ok(stdout.includes('"users" -> "cache"'), stdout);
  assert.ok(stdout.includes('"cache_out" [shape="trapezium"]'), stdout);
  assert.ok(stdout.includes('"cache_out" -> "expired" [label="expired"]'), stdout);
});

test.run();
