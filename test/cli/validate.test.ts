import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scratchDir, svc, writeConfig } from './support/svc.js';

const dir = scratchDir();
const SOURCE = 'sources:\n  in:\n    type: exec\n    command: [echo, hi]\n    mode: scheduled\n';
// No sink types are needed here: SVC_ALLOW_EMPTY_CONFIG lets a configuration without sinks load.
const env = { SVC_ALLOW_EMPTY_CONFIG: 'true' };
const config = writeConfig(
  dir,
  'ok.yaml',
  `${SOURCE}transforms:\n  t:\n    type: remap\n    inputs: [in]\n    source: '.x = 1'\n`,
);

test('validate prints the warnings, the component check and Validated under a rule as wide as the widest line', () => {
  const { status, stdout, stderr } = svc(['validate', config], { env });
  const title = `Loaded with warnings ["${config}"]`;
  assert.is(
    stdout,
    [
      title,
      '-'.repeat(title.length),
      '~ Transform "t" has no consumers',
      '',
      '√ Component configuration',
      '-'.repeat(title.length),
      `${' '.repeat(title.length - 9)}Validated`,
      '',
    ].join('\n'),
  );
  assert.is(stderr, '');
  assert.is(status, 0);
});

const SINKS = `${SOURCE}sinks:
  out:
    type: blackhole
    inputs: [in]
  print:
    type: console
    inputs: [in]
    encoding: { codec: json }
`;

test("validate checks the components and each sink's health: √ for each, then Validated", () => {
  const config = writeConfig(dir, 'sinks.yaml', SINKS);
  const { status, stdout, stderr } = svc(['validate', config]);
  const loaded = `√ Loaded ["${config}"]`;
  assert.is(
    stdout,
    [
      loaded,
      '√ Component configuration',
      '√ Health check "out"',
      '√ Health check "print"',
      '-'.repeat(loaded.length),
      `${' '.repeat(loaded.length - 9)}Validated`,
      '',
    ].join('\n'),
  );
  assert.is(stderr, '');
  assert.is(status, 0);
});

test('a failing healthcheck is an x line and exit 78; --skip-healthchecks does not run it', () => {
  const config = writeConfig(
    dir,
    'unhealthy.yaml',
    `${SOURCE}sinks:
  web:
    type: http
    inputs: [in]
    uri: http://127.0.0.1:1/
    encoding: { codec: json }
    healthcheck: { uri: "http://127.0.0.1:1/health", timeout: 5 }
`,
  );
  const failed = svc(['validate', config]);
  assert.is(
    failed.stdout,
    `√ Loaded ["${config}"]\n√ Component configuration\nx Health check for "web" failed: connect ECONNREFUSED 127.0.0.1:1\n`,
  );
  assert.is(failed.status, 78);
  const skipped = svc(['validate', '--skip-healthchecks', config]);
  assert.match(skipped.stdout, /^√ Loaded .*\n√ Component configuration\n-+\n +Validated\n$/);
  assert.is(skipped.status, 0);
});

test('disabled healthchecks are warnings, failing only with --deny-warnings', () => {
  const config = writeConfig(dir, 'disabled.yaml', `${SINKS}    healthcheck: { enabled: false }\n`);
  const globally = writeConfig(dir, 'off.yaml', 'healthchecks:\n  enabled: false\n');
  const one = svc(['validate', config]);
  assert.ok(one.stdout.includes('√ Health check "out"\n~ Health check disabled for "print"\n'), one.stdout);
  assert.is(one.status, 0);
  assert.is(svc(['validate', '-d', config]).status, 78);
  const all = svc(['validate', config, globally]);
  assert.ok(all.stdout.includes('√ Component configuration\n~ Health checks are disabled\n'), all.stdout);
  assert.is(all.status, 0);
  const denied = svc(['validate', '--deny-warnings', config, globally]);
  assert.not.match(denied.stdout, /Validated/);
  assert.is(denied.status, 78);
});

test('a proxy is acted on: no warning, even with --deny-warnings', () => {
  const config = writeConfig(dir, 'proxy.yaml', `${SINKS}proxy:\n  http: http://127.0.0.1:3128\n`);
  const { status, stdout } = svc(['validate', '--deny-warnings', config]);
  assert.not.match(stdout, /warning|~ proxy/, stdout);
  assert.is(status, 0);
});

for (const flag of ['--no-environment', '-ne']) {
  test(`validate ${flag} only loads the configuration: a program that does not compile goes unnoticed`, () => {
    const broken = writeConfig(
      dir,
      `broken${flag}.yaml`,
      `${SOURCE}transforms:\n  t:\n    type: remap\n    inputs: [in]\n    source: '.x = '\n`,
    );
    const { status, stdout } = svc(['validate', flag, broken], { env });
    assert.not.match(stdout, /Component/);
    assert.match(stdout, /\n +Validated\n$/);
    assert.is(status, 0);
  });
}

test('validate reports component errors under their title and exits 78', () => {
  const broken = writeConfig(
    dir,
    'broken.yaml',
    `${SOURCE}transforms:\n  t:\n    type: remap\n    inputs: [in]\n    source: 'upcase(1)'\n`,
  );
  const { status, stdout } = svc(['validate', '--skip-healthchecks', broken], { env });
  assert.match(stdout, /\n\nComponent errors\n----------------\nx [^\n]*broken\.yaml: transforms\.t: error\[E110\]/);
  assert.match(stdout, /invalid argument type/);
  assert.not.match(stdout, /Validated/);
  assert.is(status, 78);
});

test('validate reads the certificates: a missing one is a component error naming the file, component and option', () => {
  const broken = writeConfig(
    dir,
    'tls.yaml',
    `sources:
  web:
    type: http_server
    address: 127.0.0.1:0
    tls: { enabled: true, crt_file: /nonexistent/server.crt, key_file: /nonexistent/server.key }
sinks:
  out:
    type: blackhole
    inputs: [web]
`,
  );
  const { status, stdout } = svc(['validate', broken]);
  assert.ok(
    stdout.includes(
      `Component errors\n----------------\nx ${broken}: sources.web: tls.crt_file: cannot read "/nonexistent/server.crt": no such file\n`,
    ),
    stdout,
  );
  assert.is(status, 78);
});

test('validate --deny-warnings turns the warnings into errors', () => {
  const { status, stdout } = svc(['validate', '-d', config], { env });
  const title = `Failed to load ["${config}"]`;
  assert.is(stdout, `${title}\n${'-'.repeat(title.length)}\nx Transform "t" has no consumers\n\n`);
  assert.is(status, 78);
});

test('validate lists every loading error at once, files given by format included', () => {
  const bad = writeConfig(
    dir,
    'bad.conf',
    '{"sources": {"in": {"type": "exec", "mode": "sometimes", "command": ["x"]}}, "sinks": {}}',
  );
  const { status, stdout } = svc(['validate', '--config-json', bad, '/nonexistent/svc.yaml']);
  const title = `Failed to load ["/nonexistent/svc.yaml", "${bad}"]`;
  assert.is(
    stdout,
    [
      title,
      '-'.repeat(title.length),
      "x /nonexistent/svc.yaml: could not read the file: ENOENT: no such file or directory, open '/nonexistent/svc.yaml'",
      '',
      '',
    ].join('\n'),
  );
  assert.is(status, 78);
  const schema = svc(['validate', '--config-json', bad]);
  assert.ok(
    schema.stdout.includes(
      `x ${bad}: sources.in: option "mode": expected one of "scheduled", "streaming", got "sometimes"\nx no sinks defined in the configuration\n`,
    ),
    schema.stdout,
  );
  assert.is(schema.status, 78);
});

test('validate -C / --config-dir reads the configuration of a directory', () => {
  const configDir = join(dir, 'conf.d');
  mkdirSync(configDir);
  writeConfig(configDir, 'in.yaml', SOURCE);
  writeConfig(configDir, 'sink.toml', '[sinks.out]\ntype = "blackhole"\ninputs = ["in"]\n');
  for (const flag of ['-C', '--config-dir']) {
    const { status, stdout } = svc(['validate', '--no-environment', flag, configDir], { env });
    assert.ok(stdout.startsWith(`√ Loaded ["${configDir}"]\n`), stdout);
    assert.is(status, 0);
  }
});

test('validate without paths reads /etc/svc/svc.yaml', () => {
  const { status, stdout } = svc(['validate']);
  assert.match(stdout, /^Failed to load \["\/etc\/svc\/svc\.yaml"\]\n/);
  assert.is(status, 78);
});

test('validate --color always paints the marks', () => {
  const { stdout } = svc(['--color', 'always', 'validate', config], { env });
  assert.ok(stdout.includes('\x1b[33m~\x1b[0m Transform "t" has no consumers'), stdout);
  assert.ok(stdout.includes('\x1b[32mValidated\x1b[0m'), stdout);
});

test.run();
