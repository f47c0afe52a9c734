import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scratchDir, svc, writeConfig } from './support/svc.js';

const dir = scratchDir();

test('generate prints YAML for a pipeline expression: names by stage, wiring, defaults, data_dir', () => {
  const { status, stdout, stderr } = svc(['generate', 'in:exec/sample,dedupe']);
  assert.is(
    stdout,
    `data_dir: /var/lib/svc/
sources:
  in:
    type: exec
    mode: scheduled
    # command: <array of string> (required)
    scheduled:
      exec_interval_secs: 60
    streaming:
      respawn_on_exit: true
      respawn_interval_secs: 5
    clear_environment: false
    include_stderr: true
    maximum_buffer_size_bytes: 1000000
    decoding:
      codec: bytes
transforms:
  transform0:
    type: sample
    inputs:
      - in
    sample_rate_key: sample_rate
  transform1:
    type: dedupe
    inputs:
      - transform0
    cache:
      num_events: 5000
`,
  );
  assert.is(stderr, '');
  assert.is(status, 0);
});

test('generate --fragment leaves out the global options; an empty stage is allowed', () => {
  const { status, stdout } = svc(['generate', '--fragment', '/filter', '--format', 'json']);
  assert.equal(JSON.parse(stdout), { transforms: { transform0: { type: 'filter', inputs: ['component-id'] } } });
  assert.is(status, 0);
});

test('generate --format toml writes TOML with required options commented out', () => {
  const { status, stdout } = svc(['generate', '-f', '/filter', '--format', 'toml']);
  assert.is(
    stdout,
    '[transforms.transform0]\ntype = "filter"\ninputs = [ "component-id" ]\n# condition = <table> (required)\n',
  );
  assert.is(status, 0);
});

test('generate without a pipeline prints only the global options', () => {
  assert.equal(svc(['generate']), { status: 0, stdout: 'data_dir: /var/lib/svc/\n', stderr: '' });
});

test('generate --file writes the file, in the format of its extension, and never overwrites one', () => {
  const file = join(dir, 'new', 'svc.json');
  const first = svc(['generate', 'file/remap', '--file', file]);
  assert.is(first.stdout, `Config file written to ${JSON.stringify(file)}\n`);
  assert.is(first.status, 0);
  const written = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(written.transforms.transform0.inputs, ['source0']);
  const existing = writeConfig(dir, 'existing.yaml', 'keep me');
  const second = svc(['generate', 'file', '--file', existing]);
  assert.is(second.stderr, `failed to write file: ${JSON.stringify(existing)} already exists\n`);
  assert.is(second.status, 70);
  assert.is(readFileSync(existing, 'utf8'), 'keep me');
});

test('generate reports every unknown type with the closest name and exits 70', () => {
  const target = join(dir, 'never.yaml');
  const { status, stdout, stderr } = svc(['generate', 'exec,fil/remapp/x:', '--file', target]);
  assert.is(stdout, '');
  assert.is(
    stderr,
    [
      'failed to generate source "fil": unknown source type "fil"; did you mean "file"?',
      'failed to generate transform "remapp": unknown transform type "remapp"; did you mean "remap"?',
      'failed to generate sink "x:": unknown sink type ""',
      '',
    ].join('\n'),
  );
  assert.is(status, 70);
  assert.not.ok(existsSync(target));
});

test('generate refuses an unknown --format', () => {
  assert.equal(svc(['generate', 'file', '--format', 'xml']), {
    status: 64,
    stdout: '',
    stderr: "svc: invalid --format 'xml': expected one of yaml, toml, json\n",
  });
});

test.run();
