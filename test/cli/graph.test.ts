import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scratchDir, svc, writeConfig } from './support/svc.js';

const dir = scratchDir();
const config = writeConfig(
  dir,
  'graph.yaml',
  `
sources:
  in:
    type: exec
    command: [echo, hi]
    mode: scheduled
    graph:
      node_attributes:
        shape: box
transforms:
  split:
    type: route
    inputs: [in]
    route:
      errors: '.level == "error"'
    graph:
      node_attributes:
        color: red
  "only errors":
    type: filter
    inputs: [split.errors]
    condition: 'true'
  rest:
    type: remap
    inputs: ["split._unmatched", "only*"]
    source: '.x = 1'
sinks:
  out:
    type: blackhole
    inputs: [rest]
`,
);
// Configurations without sinks load with SVC_ALLOW_EMPTY_CONFIG.
const env = { SVC_ALLOW_EMPTY_CONFIG: 'true' };

test('graph prints DOT: shapes by kind, node attributes, edges with the port as label, wildcards resolved', () => {
  const { status, stdout, stderr } = svc(['graph', '--config', config]);
  assert.is(
    stdout,
    [
      'digraph {',
      '  "in" [shape="box"]',
      '  "split" [shape="diamond" color="red"]',
      '  "in" -> "split"',
      '  "only errors" [shape="diamond"]',
      '  "split" -> "only errors" [label="errors"]',
      '  "rest" [shape="diamond"]',
      '  "split" -> "rest" [label="_unmatched"]',
      '  "only errors" -> "rest"',
      '  "out" [shape="invtrapezium"]',
      '  "rest" -> "out"',
      '}',
      '',
    ].join('\n'),
  );
  assert.is(stderr, '');
  assert.is(status, 0);
});

test('graph --format mermaid prints a flowchart', () => {
  const { status, stdout } = svc(['graph', '-c', config, '--format', 'mermaid']);
  assert.is(
    stdout,
    [
      'flowchart TD;',
      '',
      '  %% Sources',
      '  in[/in/]',
      '',
      '  %% Transforms',
      '  split{split}',
      '  in --> split',
      '  only errors{only errors}',
      '  split -->|errors| only errors',
      '  rest{rest}',
      '  split -->|_unmatched| rest',
      '  only errors --> rest',
      '',
      '  %% Sinks',
      '  out[\\out\\]',
      '  rest --> out',
      '',
      '',
    ].join('\n'),
  );
  assert.is(status, 0);
});

test('graph reports every configuration error on stderr and exits 78', () => {
  const bad = writeConfig(
    dir,
    'bad.yaml',
    'sources:\n  in:\n    type: exex\ntransforms:\n  t:\n    type: remap\n    inputs: [nowhere]\n    source: "."\n',
  );
  const { status, stdout, stderr } = svc(['graph', '-c', bad]);
  assert.is(stdout, '');
  assert.is(
    stderr,
    [
      `${bad}: sources.in: unknown source type "exex"; did you mean "exec"?`,
      'no sinks defined in the configuration',
      '',
    ].join('\n'),
  );
  assert.is(status, 78);
});

test('graph reports graph errors (an input matching nothing) with exit 78', () => {
  const bad = writeConfig(
    dir,
    'dangling.yaml',
    'sources:\n  in:\n    type: exec\n    command: [x]\n    mode: scheduled\ntransforms:\n  t:\n    type: remap\n    inputs: [nowhere]\n    source: "."\n',
  );
  const { status, stderr } = svc(['graph', '-c', bad], { env });
  assert.is(stderr, 'Input "nowhere" for transform "t" doesn\'t match any components.\n');
  assert.is(status, 78);
});

test('graph refuses an unknown --format and the root flags it does not take', () => {
  assert.equal(svc(['graph', '-c', config, '--format', 'svg']), {
    status: 64,
    stdout: '',
    stderr: "svc: invalid --format 'svg': expected one of dot, mermaid\n",
  });
  const { status, stderr } = svc(['graph', '-c', config, '--watch-config']);
  assert.is(stderr, 'svc: Unknown option `--watch-config`\n');
  assert.is(status, 64);
});

test.run();
