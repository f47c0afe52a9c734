import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../host/config/errors.js';
import { textLogHub } from './support/log-hub.js';
import { loadPipelineConfig } from '../../host/pipeline.js';
import { UnitTests, type TestResult } from '../../host/unit-tests.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-unit-tests-'));
const { hub, lines: logs } = textLogHub({ level: 'warn' });
const env = { log: hub.logger('svc'), logHub: hub, chunkSize: 1000, maxDecompressedSize: 1 << 20 };

const PIPELINE = `
sources:
  in:
    type: exec
    command: [x]
    mode: scheduled
transforms:
  tag:
    type: remap
    inputs: [in]
    source: '.tagged = true'
  split:
    type: route
    inputs: [tag]
    route:
      big: '.n == 11'
  keep:
    type: filter
    inputs: [split.big, split._unmatched]
    condition: 'exists(.keep)'
  count:
    type: dedupe
    inputs: [keep]
    fields:
      match: [n]
`;

let files = 0;
async function build(tests: string, pipeline = PIPELINE): Promise<UnitTests> {
  const path = join(dir, `config${files++}.yaml`);
  writeFileSync(path, `${pipeline}tests:\n${tests}`);
  const config = await loadPipelineConfig({
    locations: { files: [{ path }], dirs: [] },
    interpolate: false,
    allowEmptyConfig: true,
  });
  return UnitTests.build(config, env);
}

async function results(tests: UnitTests): Promise<TestResult[]> {
  const all: TestResult[] = [];
  for await (const result of tests.run()) all.push(result);
  return all;
}

test('inputs of every type run through the transforms; outputs and named ports are extracted', async () => {
  const tests = await build(`
  - name: log fields by path, through a route port
    inputs:
      - insert_at: tag
        type: log
        log_fields: { n: 11, a.b: x, keep: true }
    outputs:
      - extract_from: split.big
        conditions:
          - type: vrl
            source: 'assert_eq!(.a.b, "x"); .tagged == true && .message == "" && is_timestamp(.timestamp)'
      - extract_from: [count]
        conditions: ['.n == 11']
    no_outputs_from: [split._unmatched]
  - name: raw is the message
    inputs:
      - insert_at: split
        value: hello
    outputs:
      - extract_from: split._unmatched
        conditions: ['.message == "hello"', '!exists(.tagged)']
  - name: vrl builds the event
    inputs:
      - insert_at: keep
        type: vrl
        source: '.keep = 1; .n = 2'
    outputs:
      - extract_from: keep
        conditions: ['.n == 2']
  - name: metric
    inputs:
      - insert_at: split
        type: metric
        metric: { name: hits, kind: incremental, counter: { value: 2 } }
    outputs:
      - extract_from: split._unmatched
        conditions: ['.name == "hits"']
`);
  assert.is(tests.count, 4);
  const all = await results(tests);
  assert.equal(
    all.map((r) => r.errors),
    [[], [], [], []],
  );
  assert.equal(
    all.map((r) => r.name),
    ['log fields by path, through a route port', 'raw is the message', 'vrl builds the event', 'metric'],
  );
});

test('a transform that keeps events (reduce) emits them once the inputs end, as Vector ends its stream', async () => {
  const pipeline = `${PIPELINE}
  merge:
    type: reduce
    inputs: [tag]
    merge_strategies:
      message: concat
`;
  const tests = await build(
    `
  - name: reduced
    inputs:
      - insert_at: merge
        value: one
      - insert_at: merge
        value: two
    outputs:
      - extract_from: merge
        conditions: ['.message == "one two"']
`,
    pipeline,
  );
  assert.equal(
    (await results(tests)).map((r) => r.errors),
    [[]],
  );
});

test("each condition must hold for some event; failures name the check, each event's reason and the payloads", async () => {
  const tests = await build(`
  - name: fails
    inputs:
      - insert_at: keep
        type: log
        log_fields: { keep: 1, n: 1 }
      - insert_at: keep
        type: log
        log_fields: { keep: 1, n: 2 }
    outputs:
      - extract_from: keep
        conditions: ['.n == 2', '.n == 3', 'assert!(.n == 4, "n is not 4")']
`);
  const [result] = await results(tests);
  const errors = result!.errors;
  assert.is(errors.length, 6);
  assert.equal(errors.slice(0, 5), [
    'check[0] for transforms ["keep"] failed conditions:',
    '  condition[1]: source execution resolved to false',
    '  condition[1]: source execution resolved to false',
    '  condition[2]: source execution failed: function call error for "assert" at (0:30): n is not 4',
    '  condition[2]: source execution failed: function call error for "assert" at (0:30): n is not 4',
  ]);
  assert.match(
    errors[5]!,
    /^output payloads from \["keep"\] \(events encoded as JSON\):\n {2}\{"keep":1,"message":"","n":1,"timestamp":"[^"]+"\}\n {2}\{"keep":1,"message":"","n":2,"timestamp":"[^"]+"\}$/,
  );
});

test("a vrl input in Vector's log namespace: its metadata and its string value reach transforms and conditions", async () => {
  const tests = await build(`
  - name: namespaced
    inputs:
      - insert_at: split
        type: vrl
        source: '%vector.source_type = "file"; %file.path = "/var/log/a"; . = "line"'
    outputs:
      - extract_from: split._unmatched
        conditions:
          - '. == "line" && %file.path == "/var/log/a" && %vector.source_type == "file"'
`);
  assert.equal(
    (await results(tests)).map((r) => r.errors),
    [[]],
  );
});

test('no events, and events where none were expected, fail', async () => {
  const tests = await build(`
  - name: nothing passes the filter
    inputs:
      - insert_at: keep
        value: dropped
    outputs:
      - extract_from: keep
        conditions: ['true']
  - name: something leaves
    inputs:
      - insert_at: tag
        value: kept
    no_outputs_from: [tag]
`);
  assert.equal(
    (await results(tests)).map((r) => r.errors),
    [
      ['checks for transforms ["keep"] failed: no events received.'],
      ['check for transforms ["tag"] failed: expected no outputs'],
    ],
  );
});

test('stateful transforms start afresh in each test', async () => {
  const test1 = `
  - name: first
    inputs:
      - insert_at: count
        type: log
        log_fields: { n: 1 }
    outputs:
      - extract_from: count
        conditions: ['.n == 1']`;
  assert.equal(
    (await results(await build(`${test1}${test1.replace('first', 'second')}`))).map((r) => r.errors),
    [[], []],
  );
});

test('tests that cannot be built are reported together, each with all its problems', async () => {
  try {
    await build(`
  - name: bad targets
    inputs:
      - insert_at: in
        value: x
      - insert_at: tag
        type: log
    outputs:
      - extract_from: [split.small, tag]
        conditions: ['.x = 1']
    no_outputs_from: [nowhere]
  - name: empty
    inputs: []
`);
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ConfigError);
    const [bad, empty] = (error as ConfigError).errors;
    assert.match(
      bad!,
      /^Failed to build test "bad targets":\n {2}inputs\[0\]: unable to locate target transform "in"\n {2}inputs\[1\]: input type "log" requires the field "log_fields"\n {2}outputs\[0\]: invalid extract_from target "split.small": no transform output has this id\n {2}outputs\[0\].conditions\[0\]: VRL conditions must return a boolean\.\n/,
    );
    assert.match(bad!, /\n {2}invalid no_outputs_from target "nowhere": no transform output has this id$/);
    assert.is(
      empty,
      'Failed to build test "empty":\n  at least one input is required\n  at least one of "outputs" or "no_outputs_from" is required',
    );
  }
});

test('a configuration without tests builds to none', async () => {
  const path = join(dir, 'none.yaml');
  writeFileSync(path, PIPELINE);
  const config = await loadPipelineConfig({
    locations: { files: [{ path }], dirs: [] },
    interpolate: false,
    allowEmptyConfig: true,
  });
  assert.is((await UnitTests.build(config, env)).count, 0);
});

test("log() in a transform and in a condition writes each call site's first line, with its vrl_position", async () => {
  const path = join(dir, 'logging.yaml');
  writeFileSync(
    path,
    `sources:
  in:
    type: exec
    command: [x]
    mode: scheduled
transforms:
  say:
    type: remap
    inputs: [in]
    source: 'log("saw " + to_string!(.n), level: "warn")'
tests:
  - name: logs
    inputs:
      - { insert_at: say, type: log, log_fields: { n: 1 } }
      - { insert_at: say, type: log, log_fields: { n: 2 } }
    outputs:
      - extract_from: say
        conditions: ['log("checked " + to_string!(.n), level: "error"); true']
`,
  );
  const config = await loadPipelineConfig({
    locations: { files: [{ path }], dirs: [] },
    interpolate: false,
    allowEmptyConfig: true,
  });
  logs.length = 0;
  const all = await results(await UnitTests.build(config, env));
  assert.equal(
    all.map((r) => r.errors),
    [[]],
  );
  assert.equal(
    logs.map((line) => line.replace(/^\S+ /, '')),
    [' WARN svc: saw 1 component_id=say vrl_position=0\n', 'ERROR svc: checked 1 vrl_position=0\n'],
  );
});

test.run();
