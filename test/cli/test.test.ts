import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scratchDir, svc, writeConfig } from './support/svc.js';

const dir = scratchDir();
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
`;

test('test runs every test and reports each as passed; exit 0', () => {
  const config = writeConfig(
    dir,
    'pass.yaml',
    `${PIPELINE}tests:
  - name: tags
    inputs:
      - insert_at: tag
        value: hello
    outputs:
      - extract_from: tag
        conditions: ['.tagged == true && .message == "hello"']
  - name: also tags
    inputs:
      - insert_at: tag
        type: log
        log_fields: { n: 1 }
    outputs:
      - extract_from: tag
        conditions: ['.n == 1']
`,
  );
  assert.equal(svc(['test', config]), {
    status: 0,
    stdout: 'Running tests\ntest tags ... passed\ntest also tags ... passed\n',
    stderr: '',
  });
});

test('failed tests are listed after the run with their failing conditions and the events; exit 78', () => {
  const config = writeConfig(
    dir,
    'fail.json',
    JSON.stringify({
      sources: { in: { type: 'exec', command: ['x'], mode: 'scheduled' } },
      transforms: { tag: { type: 'remap', inputs: ['in'], source: '.tagged = true' } },
      tests: [
        {
          name: 'ok',
          inputs: [{ insert_at: 'tag', value: 'a' }],
          outputs: [{ extract_from: 'tag', conditions: ['.tagged == true'] }],
        },
        {
          name: 'wrong',
          inputs: [{ insert_at: 'tag', type: 'vrl', source: '.n = 1' }],
          outputs: [{ extract_from: 'tag', conditions: [{ type: 'vrl', source: '.n == 2' }] }],
        },
      ],
    }),
  );
  const { status, stdout, stderr } = svc(['test', '--config-json', config]);
  assert.is(
    stdout,
    [
      'Running tests',
      'test ok ... passed',
      'test wrong ... failed',
      '',
      'failures:',
      '',
      'test wrong:',
      '',
      'check[0] for transforms ["tag"] failed conditions:',
      '',
      '  condition[0]: source execution resolved to false',
      '',
      'output payloads from ["tag"] (events encoded as JSON):',
      '  {"n":1,"tagged":true}',
      '',
      '',
    ].join('\n'),
  );
  assert.is(stderr, '');
  assert.is(status, 78);
});

test('test -C / --config-dir runs the tests of a directory', () => {
  const configDir = join(dir, 'conf.d');
  mkdirSync(configDir);
  writeConfig(
    configDir,
    'pipeline.yaml',
    `${PIPELINE}tests:
  - name: tags
    inputs: [{ insert_at: tag, value: hello }]
    outputs: [{ extract_from: tag, conditions: ['.tagged == true'] }]
`,
  );
  for (const flag of ['-C', '--config-dir']) {
    assert.equal(svc(['test', flag, configDir]), {
      status: 0,
      stdout: 'Running tests\ntest tags ... passed\n',
      stderr: '',
    });
  }
});

test('a configuration without tests says so and exits 0, as Vector does', () => {
  const config = writeConfig(dir, 'none.yaml', PIPELINE);
  assert.equal(svc(['test', config]), { status: 0, stdout: 'Running tests\nNo tests found.\n', stderr: '' });
});

test('tests that cannot be built are a configuration error (78)', () => {
  const config = writeConfig(
    dir,
    'bad.yaml',
    `${PIPELINE}tests:\n  - name: bad\n    inputs:\n      - insert_at: in\n        value: x\n    no_outputs_from: [tag]\n`,
  );
  const { status, stdout, stderr } = svc(['test', config]);
  assert.is(stdout, 'Running tests\n');
  assert.match(
    stderr,
    / ERROR svc: Failed to execute tests:\nFailed to build test "bad":\n {2}inputs\[0\]: unable to locate target transform "in"\.\n$/,
  );
  assert.is(status, 78);
});

test('test without paths reads /etc/svc/svc.yaml', () => {
  const { status, stderr } = svc(['test']);
  assert.match(stderr, /Failed to execute tests:\n\/etc\/svc\/svc\.yaml: could not read the file/);
  assert.is(status, 78);
});

test.run();
