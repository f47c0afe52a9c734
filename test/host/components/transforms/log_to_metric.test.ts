// log_to_metric: the exact metrics Vector makes of given logs, for each metric type, templated names and
// tags, multi-valued and expanded tags, and Vector's errors for missing, null and unparseable fields.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import logToMetric from '../../../../host/components/transforms/log_to_metric.js';
import type { TransformResult } from '../../../../host/components/component.js';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import { batchOf, runnerOf } from '../../support/components.js';

const ts = new Timestamp(1_542_182_950_000_000_011n);

async function run(options: unknown, events: unknown[]) {
  const { runner } = await runnerOf(logToMetric, options);
  const result = runner.process(batchOf(events)) as TransformResult;
  const records = decodeBatch(result.outputs[0]!.batch.bytes).events;
  assert.ok(records.every((record) => record.kind === 'metric'));
  return { result, metrics: records.map((record) => record.event) };
}

test('a counter per event, named by the field, tagged by templates, at the event timestamp', async () => {
  const { metrics, result } = await run(
    {
      metrics: [{ type: 'counter', field: 'status', tags: { status: '{{status}}', host: '{{host}}', bare: null } }],
    },
    [
      { message: 'hello', status: '42', host: 'localhost', timestamp: ts },
      { message: 'world', status: '500', host: 'b', timestamp: ts },
    ],
  );
  assert.equal(metrics, [
    {
      name: 'status',
      tags: { bare: null, host: 'localhost', status: '42' },
      timestamp: ts,
      kind: 'incremental',
      counter: { value: 1 },
    },
    {
      name: 'status',
      tags: { bare: null, host: 'b', status: '500' },
      timestamp: ts,
      kind: 'incremental',
      counter: { value: 1 },
    },
  ]);
  assert.equal(result.errors, []);
  assert.equal(result.discarded, []);
});

test('increment_by_value, absolute kind, name and namespace templates; gauge, set, histogram, summary', async () => {
  const { metrics } = await run(
    {
      metrics: [
        {
          type: 'counter',
          field: 'amount',
          name: '{{service}}_total',
          namespace: 'app',
          increment_by_value: true,
          kind: 'absolute',
        },
        { type: 'gauge', field: 'memory' },
        { type: 'set', field: 'user' },
        { type: 'histogram', field: 'took', name: 'took_seconds' },
        { type: 'summary', field: 'took', name: 'took_summary' },
      ],
    },
    [{ service: 'checkout', amount: '33.99', memory: 12, user: 3.0, took: '0.25', timestamp: ts }],
  );
  assert.equal(metrics, [
    { name: 'checkout_total', namespace: 'app', timestamp: ts, kind: 'absolute', counter: { value: 33.99 } },
    { name: 'memory', timestamp: ts, kind: 'absolute', gauge: { value: 12 } },
    { name: 'user', timestamp: ts, kind: 'incremental', set: { values: ['3'] } },
    {
      name: 'took_seconds',
      timestamp: ts,
      kind: 'incremental',
      distribution: { samples: [{ value: 0.25, rate: 1n }], statistic: 'histogram' },
    },
    {
      name: 'took_summary',
      timestamp: ts,
      kind: 'incremental',
      distribution: { samples: [{ value: 0.25, rate: 1n }], statistic: 'summary' },
    },
  ]);
});

test('multi-valued tags keep each value once, the repeated one last; a `*` key expands a JSON object', async () => {
  const { metrics } = await run(
    {
      metrics: [
        {
          type: 'counter',
          field: 'message',
          tags: { env: ['{{a}}', null, '{{b}}', '{{a}}'], 'labels_*': '{{labels}}' },
        },
      ],
    },
    [{ message: 'x', a: 'prod', b: 'dev', labels: '{"Zone A": "eu", "rack": 7, "gone": null}', timestamp: ts }],
  );
  assert.equal(metrics, [
    {
      name: 'message',
      tags: { env: [null, 'dev', 'prod'], labels_rack: '7', labels_zone_a: 'eu' },
      timestamp: ts,
      kind: 'incremental',
      counter: { value: 1 },
    },
  ]);
});

test('a log gives all its metrics or none: missing, null and unparseable fields drop it with Vector errors', async () => {
  const { metrics, result } = await run(
    {
      metrics: [
        { type: 'counter', field: 'message' },
        { type: 'gauge', field: 'value' },
      ],
    },
    [
      { message: 'ok', value: '1.5e3', timestamp: ts },
      { message: 'no value', timestamp: ts },
      { message: 'null value', value: null, timestamp: ts },
      { message: 'text value', value: 'many', timestamp: ts },
      { message: 'text value', value: 'more', timestamp: ts },
    ],
  );
  assert.equal(metrics, [
    { name: 'message', timestamp: ts, kind: 'incremental', counter: { value: 1 } },
    { name: 'value', timestamp: ts, kind: 'absolute', gauge: { value: 1500 } },
  ]);
  assert.equal(result.errors, [
    {
      count: 1,
      errorType: 'condition_failed',
      stage: 'processing',
      message: 'Field does not exist.',
      tags: { error_code: 'field_not_found', field: '.value' },
    },
    {
      count: 1,
      errorType: 'condition_failed',
      stage: 'processing',
      message: 'Unable to convert null field.',
      tags: { error_code: 'field_null', null_field: '.value' },
    },
    {
      count: 2,
      errorType: 'parser_failed',
      stage: 'processing',
      message: 'Failed to parse field as float: invalid float literal.',
      tags: { error_code: 'failed_parsing_float', field: '.value' },
    },
  ]);
  assert.equal(result.discarded, [
    { count: 1, intentional: false, reason: 'Field does not exist.' },
    { count: 1, intentional: false, reason: 'Unable to convert null field.' },
    { count: 2, intentional: false, reason: 'Failed to parse field as float.' },
  ]);
});

test('a name template that cannot render drops the event; a tag that cannot render is left out', async () => {
  const { metrics, result } = await run(
    { metrics: [{ type: 'counter', field: 'message', name: '{{service}}', tags: { user: '{{user}}' } }] },
    [
      { message: 'a', service: 'api', timestamp: ts },
      { message: 'b', timestamp: ts },
    ],
  );
  assert.equal(metrics, [{ name: 'api', timestamp: ts, kind: 'incremental', counter: { value: 1 } }]);
  assert.equal(
    result.errors?.map((error) => error.errorType),
    ['template_failed'],
  );
  assert.is(result.warnings?.length, 1);
});

test('events of one series share it; a tag that cannot render is left out of each with a warning per event', async () => {
  const { metrics, result } = await run(
    {
      metrics: [
        { type: 'counter', field: 'status', namespace: 'web', tags: { method: '{{method}}', user: '{{user}}' } },
        { type: 'set', field: 'method', namespace: 'web', tags: { method: '{{method}}' } },
      ],
    },
    [
      { status: '200', method: 'GET', user: 'u1', timestamp: ts },
      { status: '200', method: 'GET', timestamp: ts },
      { status: '500', method: 'GET', timestamp: ts },
    ],
  );
  const requests = (tags: object) => ({
    name: 'status',
    namespace: 'web',
    tags,
    timestamp: ts,
    kind: 'incremental',
    counter: { value: 1 },
  });
  const methods = {
    name: 'method',
    namespace: 'web',
    tags: { method: 'GET' },
    timestamp: ts,
    kind: 'incremental',
    set: { values: ['GET'] },
  };
  assert.equal(metrics, [
    requests({ method: 'GET', user: 'u1' }),
    methods,
    requests({ method: 'GET' }),
    methods,
    requests({ method: 'GET' }),
    methods,
  ]);
  assert.equal(
    result.warnings?.map((warning) => warning.message),
    ['Failed to render template for a tag value.', 'Failed to render template for a tag value.'],
  );
});

test('a template the program renders for one event of a batch renders the others the same', async () => {
  const { metrics } = await run({ metrics: [{ type: 'counter', field: 'message', tags: { v: '{{v}}' } }] }, [
    { message: 'a', v: 'text', timestamp: ts },
    { message: 'b', v: 1.5, timestamp: ts },
    { message: 'c', v: 7n, timestamp: ts },
  ]);
  assert.equal(
    metrics.map((metric) => (metric as { tags: { v: string } }).tags.v),
    ['text', '1.5', '7'],
  );
});

test('a later batch of the same series gets the same metrics and warnings', async () => {
  const { runner } = await runnerOf(logToMetric, {
    metrics: [{ type: 'counter', field: 'status', tags: { method: '{{method}}', user: '{{user}}' } }],
  });
  const batch = () => batchOf([{ status: '200', method: 'GET', timestamp: ts }]);
  const [first, second] = [runner.process(batch()), runner.process(batch())] as TransformResult[];
  for (const result of [first!, second!]) {
    assert.equal(
      decodeBatch(result.outputs[0]!.batch.bytes).events.map((record) => record.event),
      [{ name: 'status', tags: { method: 'GET' }, timestamp: ts, kind: 'incremental', counter: { value: 1 } }],
    );
    assert.is(result.warnings?.length, 1);
  }
});

test('all_metrics: a log in Vector metric shape becomes that metric; a malformed one is an error', async () => {
  const { metrics, result } = await run({ all_metrics: true, metrics: [] }, [
    {
      name: 'test.transform.counter',
      namespace: 'ns',
      kind: 'incremental',
      counter: { value: 10.5 },
      tags: { env: 'test_env', host: 'localhost' },
      timestamp: ts,
    },
    {
      name: 'rt',
      kind: 'absolute',
      aggregated_histogram: { buckets: [{ upper_limit: 1.5, count: 2n }], count: 2n, sum: 2.5 },
      timestamp: ts,
    },
    { name: 'users', kind: 'incremental', set: { values: ['a', 'b'] }, timestamp: ts },
    { name: 'int counter', kind: 'incremental', counter: { value: 10n } },
    { name: 'no value', kind: 'incremental' },
    { name: 'bad kind', kind: 'sideways', gauge: { value: 1.5 } },
    { kind: 'incremental', gauge: { value: 1.5 } },
  ]);
  assert.equal(metrics, [
    {
      name: 'test.transform.counter',
      namespace: 'ns',
      tags: { env: 'test_env', host: 'localhost' },
      timestamp: ts,
      kind: 'incremental',
      counter: { value: 10.5 },
    },
    {
      name: 'rt',
      timestamp: ts,
      kind: 'absolute',
      aggregated_histogram: { buckets: [{ upper_limit: 1.5, count: 2n }], count: 2n, sum: 2.5 },
    },
    { name: 'users', timestamp: ts, kind: 'incremental', set: { values: ['a', 'b'] } },
  ]);
  assert.equal(
    result.errors?.map(({ errorType, tags, count }) => [errorType, tags, count]),
    [
      ['parser_failed', { error_code: 'failed_parsing_FloatError', field: 'counter.value' }, 1],
      ['parser_failed', { error_code: 'missing_metric_details' }, 1],
      ['parser_failed', { error_code: 'invalid_field_value', field: 'kind' }, 1],
      ['condition_failed', { error_code: 'field_not_found', field: 'name' }, 1],
    ],
  );
});

test('without a timestamp field, the metric is stamped now; metadata is kept', async () => {
  const { runner } = await runnerOf(logToMetric, { metrics: [{ type: 'counter', field: 'message' }] });
  const before = BigInt(Date.now()) * 1_000_000n;
  const bytes = encodeBatch([{ kind: 'log', metadata: { trace: 'x' }, event: { message: 'm' } }], 0);
  const result = runner.process({ bytes, count: 1 }) as TransformResult;
  const [record] = decodeBatch(result.outputs[0]!.batch.bytes).events;
  assert.equal(record!.metadata, { trace: 'x' });
  const stamp = (record!.event as { timestamp: Timestamp }).timestamp.nanos;
  assert.ok(stamp >= before && stamp <= BigInt(Date.now()) * 1_000_000n);
});

test('a field that is not a path is a configuration error', () => {
  const parsed = logToMetric.options.safeParse({ metrics: [{ type: 'counter', field: 'a[' }] });
  assert.is(parsed.success, false);
});

test.run();
