// Metric events in compiled programs: the VRL view the program sees, Vector's rules for what it may change,
// and the native metric written afterwards, in every entry (run, run_batch, run_chain, run_condition).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile, compileModule, loadInstance, RemapRuntimeError } from '../../runtime/index.js';
import { CodecModule } from '../../runtime/codec-module.js';
import { ChainFlag, decodeBatch, decodeOutput, encodeBatch } from '../../abi/batch.js';
import { Timestamp } from '../../abi/values.js';

const at = (rfc3339: string) => new Timestamp(BigInt(Date.parse(rfc3339)) * 1_000_000n);

const COUNTER = {
  name: 'logins',
  namespace: 'app',
  tags: { host: 'a', env: 'dev' },
  timestamp: at('2021-01-01T00:00:00Z'),
  interval_ms: 10_000n,
  kind: 'incremental',
  counter: { value: 1.5 },
};

/** Runs `source` on a metric; returns the result and the metric written. */
async function onMetric(source: string, metric: object = COUNTER) {
  return (await compile(source)).run(metric, 'metric');
}

test("the program sees Vector's view of a metric: its fields and type, not its value", async () => {
  assert.equal((await onMetric('.')).result, {
    name: 'logins',
    namespace: 'app',
    tags: { host: 'a', env: 'dev' },
    timestamp: at('2021-01-01T00:00:00Z'),
    interval_ms: 10_000n,
    kind: 'incremental',
    type: 'counter',
  });
  const types: Array<[string, unknown, string]> = [
    ['gauge', { value: -2.5 }, 'gauge'],
    ['set', { values: ['a'] }, 'set'],
    ['distribution', { samples: [{ value: 1.5, rate: 1 }], statistic: 'histogram' }, 'distribution'],
    ['aggregated_histogram', { buckets: [{ upper_limit: 1.5, count: 1 }], count: 1, sum: 1.5 }, 'aggregated histogram'],
    ['aggregated_summary', { quantiles: [{ quantile: 0.5, value: 1.5 }], count: 1, sum: 1.5 }, 'aggregated summary'],
    [
      'sketch',
      { AgentDDSketch: { bins: { k: [], n: [] }, count: 0, min: 0, max: 0, sum: 0, avg: 0 } },
      'agent dd sketch',
    ],
  ];
  for (const [key, value, type] of types) {
    assert.equal((await onMetric('.', { name: 'm', kind: 'absolute', [key]: value })).result, {
      name: 'm',
      kind: 'absolute',
      type,
    });
  }
  assert.equal(
    (
      await onMetric(
        '[.name, .namespace, .tags.host, .timestamp, .interval_ms, .kind, .type, .counter, exists(.counter)]',
      )
    ).result,
    ['logins', 'app', 'a', at('2021-01-01T00:00:00Z'), 10_000n, 'incremental', 'counter', null, false],
  );
});

test('every writable field can be changed; the value is kept', async () => {
  const { event } = await onMetric(`
.name = "sign_ins"
.namespace = "web"
.timestamp = t'2022-02-02T02:02:02Z'
.interval_ms = 60000
.kind = "absolute"
.tags.region = "eu"
.tags.host = "b"`);
  assert.equal(event, {
    name: 'sign_ins',
    namespace: 'web',
    tags: { host: 'b', env: 'dev', region: 'eu' },
    timestamp: at('2022-02-02T02:02:02Z'),
    interval_ms: 60_000n,
    kind: 'absolute',
    counter: { value: 1.5 },
  });
  assert.equal((await onMetric('.tags = {"only": "one"}\n.interval_ms = 2.9')).event, {
    ...COUNTER,
    tags: { only: 'one' },
    interval_ms: 2n,
  });
  const bare = { name: 'm', kind: 'absolute', gauge: { value: 0.5 } };
  assert.equal(
    (await onMetric('.namespace = "ns"\n.tags.a = "b"\n.timestamp = t\'2020-01-01T00:00:00Z\'', bare)).event,
    {
      ...bare,
      namespace: 'ns',
      tags: { a: 'b' },
      timestamp: at('2020-01-01T00:00:00Z'),
    },
  );
});

test('namespace, timestamp, interval_ms, tags and single tags can be deleted; del returns what the metric held', async () => {
  const { result, event } = await onMetric(
    '[del(.namespace), del(.timestamp), del(.interval_ms), del(.tags.env), del(.tags.none)]',
  );
  assert.equal(result, ['app', at('2021-01-01T00:00:00Z'), 10_000n, 'dev', null]);
  assert.equal(event, { name: 'logins', tags: { host: 'a' }, kind: 'incremental', counter: { value: 1.5 } });
  const whole = await onMetric('[del(.tags), .]');
  assert.equal(whole.result, [
    { host: 'a', env: 'dev' },
    {
      name: 'logins',
      namespace: 'app',
      timestamp: at('2021-01-01T00:00:00Z'),
      interval_ms: 10_000n,
      kind: 'incremental',
      type: 'counter',
    },
  ]);
  const { tags: _, ...untagged } = COUNTER;
  assert.equal(whole.event, untagged);
});

test('disallowed changes are ignored without an error, as Vector ignores them', async () => {
  // Each one alone would change the metric if it were applied.
  const fieldChanges = `
.name[0] = "x"; .tags.env.inner = "x"; .counter.value = 5.0
del(.type); .type = "gauge"; .kind = "x"; .kind = 1; del(.kind); .name = 1; del(.name); .namespace = true
.timestamp = "2022-01-01T00:00:00Z"; .interval_ms = 0; .interval_ms = 4294967296; .interval_ms = "5"
.tags.host = 1; .tags.env = ["x"]; .counter = {"value": 5.0}; del(.counter); .foo = 1; .tags = "a=b"`;
  assert.equal((await onMetric(fieldChanges)).event, COUNTER);
  for (const source of ['. = {"name": "other"}', '. = [.]', '. = "text"', 'del(.)', '. |= {"name": "merged"}']) {
    assert.equal((await onMetric(source)).event, COUNTER, source);
  }
  // A tag set to a non-string stays as it was in the metric; the view keeps what was assigned, as in Vector.
  assert.equal((await onMetric('.tags.host = 1\n.tags.host')).result, 1n);
  // Other ignored writes leave the view alone too.
  assert.equal((await onMetric('.kind = "x"\n.type = "gauge"\n. = [1]\n[.kind, .type, .name]')).result, [
    'incremental',
    'counter',
    'logins',
  ]);
  // `.tags` gets the string values of an object; a null tag value removes the tag.
  assert.equal((await onMetric('.tags = {"a": "b", "n": 1, "o": {}}\n.tags.host = null\n.tags.env = null')).event, {
    ...COUNTER,
    tags: { a: 'b' },
  });
});

test('the reference\'s "Modify metric tags" example', async () => {
  process.env.ENV = 'production';
  const { event } = await onMetric(
    `.tags.environment = get_env_var!("ENV") # add
.tags.hostname = del(.tags.host) # rename
del(.tags.email)`,
    {
      kind: 'incremental',
      name: 'user_login_total',
      counter: { value: 102.5 },
      tags: { host: 'my.host.com', instance_id: 'abcd1234', email: 'vic@vector.dev' },
    },
  );
  delete process.env.ENV;
  assert.equal(event, {
    kind: 'incremental',
    name: 'user_login_total',
    counter: { value: 102.5 },
    tags: { environment: 'production', hostname: 'my.host.com', instance_id: 'abcd1234' },
  });
});

test('a runtime error on a metric reports the metric as its allowed changes left it', async () => {
  const program = await compile('.name = "changed"\n.kind = "bogus"\n.x = to_int!(.namespace)');
  try {
    program.run(COUNTER, 'metric');
    assert.unreachable();
  } catch (error) {
    assert.instance(error, RemapRuntimeError);
    assert.equal((error as RemapRuntimeError).event, { ...COUNTER, name: 'changed' });
  }
});

const instanceOf = async (source: string) => loadInstance((await compileModule(source, { timezone: 'UTC' })).wasm);

test('conditions see the view: .name, .tags and .type', async () => {
  const condition = await instanceOf(
    '.name == "logins" && .tags.env == "dev" && .type == "counter" && !exists(.counter)',
  );
  const input = encodeBatch(
    [
      { kind: 'metric', event: COUNTER },
      { kind: 'metric', event: { ...COUNTER, tags: { env: 'prod' } } },
      { kind: 'metric', event: { ...COUNTER, name: 'other' } },
      { kind: 'log', event: { name: 'logins', tags: { env: 'dev' }, type: 'counter', counter: { value: 1.5 } } },
      { kind: 'metric', event: { name: 'logins', kind: 'absolute', tags: { env: 'dev' }, gauge: { value: 1.5 } } },
      { kind: 'metric', event: { name: 'logins', kind: 'absolute', tags: { env: 'dev' }, counter: { value: 2.5 } } },
    ],
    0,
  );
  const { bits, failures } = condition.runCondition(input);
  assert.equal([...bits], [0b0010_0001]);
  assert.equal(failures, []);
});

test('a mixed batch of logs and metrics, decoded from native JSON, keeps its order; each metric stays one metric', async () => {
  const codec = new CodecModule();
  const lines = [
    { log: { message: 'first' } },
    { metric: { name: 'requests', kind: 'incremental', counter: { value: 3 }, tags: { path: '/a' } } },
    { log: { message: 'second' } },
    { metric: { name: 'load', kind: 'absolute', gauge: { value: 0.25 }, timestamp: '2021-01-01T00:00:00Z' } },
  ];
  const decoded = codec.decode(Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n')), {
    framing: { method: 'newline_delimited' },
    codec: 'native_json',
    eof: true,
  });
  assert.equal(decoded.errors, []);
  const program = await instanceOf('.tags.seen = "yes"\nif exists(.message) { . = [., {"message": "extra"}] }');
  const { output, count, failures } = program.runChain(decoded.batch);
  assert.is(count, 6);
  assert.equal(failures, []);
  assert.equal(
    decodeBatch(output).events.map(({ kind, event }) => [kind, event]),
    [
      ['log', { message: 'first', tags: { seen: 'yes' } }],
      ['log', { message: 'extra' }],
      ['metric', { name: 'requests', kind: 'incremental', counter: { value: 3 }, tags: { path: '/a', seen: 'yes' } }],
      ['log', { message: 'second', tags: { seen: 'yes' } }],
      ['log', { message: 'extra' }],
      [
        'metric',
        {
          name: 'load',
          kind: 'absolute',
          gauge: { value: 0.25 },
          timestamp: at('2021-01-01T00:00:00Z'),
          tags: { seen: 'yes' },
        },
      ],
    ],
  );
  const encoded = codec.encode(output, { codec: 'native_json', framing: { method: 'newline_delimited' } });
  assert.equal(
    Buffer.from(encoded.bytes).toString().split('\n')[2],
    '{"metric":{"name":"requests","tags":{"path":"/a","seen":"yes"},"kind":"incremental","counter":{"value":3.0}}}',
  );
});

test('run_batch and run_chain write the metric; a failed metric is forwarded verbatim with KEEP_ON_ERROR', async () => {
  const program = await instanceOf('.name = "renamed"\nif .tags.fail == "yes" { .x = to_int!(.name) }');
  const input = encodeBatch(
    [
      { kind: 'metric', metadata: { m: 1 }, event: COUNTER },
      { kind: 'metric', event: { ...COUNTER, tags: { fail: 'yes' } } },
    ],
    0,
  );
  const [kept, failed] = decodeOutput(program.runBatch(input));
  assert.equal(kept, {
    kind: 'metric',
    outcome: 'kept',
    events: [{ metadata: { m: 1n }, event: { ...COUNTER, name: 'renamed' } }],
  });
  assert.equal(failed && failed.outcome === 'error' ? failed.event : undefined, {
    ...COUNTER,
    name: 'renamed',
    tags: { fail: 'yes' },
  });
  const chained = program.runChain(input, ChainFlag.KEEP_ON_ERROR);
  assert.equal(
    decodeBatch(chained.output).events.map(({ kind, event }) => [kind, event]),
    [
      ['metric', { ...COUNTER, name: 'renamed' }],
      ['metric', { ...COUNTER, tags: { fail: 'yes' } }],
    ],
  );
  assert.equal(
    chained.failures.map((failure) => failure.index),
    [1],
  );
});

test.run();
