import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { componentTypes } from '../../host/components/registry.js';
import { svc } from './support/svc.js';

const kinds = {
  sources: componentTypes('source'),
  transforms: componentTypes('transform'),
  sinks: componentTypes('sink'),
};

test('list prints every component type by kind, sorted, as Vector lays it out', () => {
  const { status, stdout, stderr } = svc(['list']);
  const section = (title: string, types: string[]) => `${title}:\n${types.map((t) => `- ${t}\n`).join('')}`;
  assert.is(
    stdout,
    [
      section('Sources', kinds.sources),
      section('Transforms', kinds.transforms),
      section('Sinks', kinds.sinks),
      section('Enrichment tables', ['file', 'geoip', 'memory', 'mmdb']),
    ].join('\n'),
  );
  assert.ok(
    stdout.includes(
      '\nTransforms:\n- aggregate\n- dedupe\n- filter\n- log_to_metric\n- metric_to_log\n- reduce\n- remap\n',
    ),
    stdout,
  );
  assert.is(stderr, '');
  assert.is(status, 0);
});

for (const format of ['json', 'avro']) {
  test(`list --format ${format} prints one JSON object`, () => {
    const { status, stdout } = svc(['list', '--format', format]);
    assert.is(stdout, `${JSON.stringify({ ...kinds, enrichment_tables: ['file', 'geoip', 'memory', 'mmdb'] })}\n`);
    assert.is(status, 0);
  });
}

test('list --format with an unknown format is a usage error', () => {
  const { status, stdout, stderr } = svc(['list', '--format', 'xml']);
  assert.is(stdout, '');
  assert.is(stderr, "svc: invalid --format 'xml': expected one of text, json, avro\n");
  assert.is(status, 64);
});

test.run();
