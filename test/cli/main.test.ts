import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

function svc(args: string[]) {
  const result = spawnSync(process.execPath, ['dist/bin/svc.js', ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

for (const flag of ['--version', '-V']) {
  test(`${flag} prints the package version`, () => {
    const { status, stdout } = svc([flag]);
    assert.ok(stdout.startsWith(`svc/${version} `), stdout);
    assert.is(status, 0);
  });
}

test('--help lists the vrl command and the --color option', () => {
  const { status, stdout } = svc(['--help']);
  assert.match(stdout, /^\s+vrl \[program\]\s+Run a remap program/m);
  assert.match(stdout, /--color <when>/);
  assert.is(status, 0);
});

test('help prints the help of svc, or of the command it names', () => {
  assert.equal(svc(['help']), svc(['--help']));
  const validate = svc(['help', 'validate']);
  assert.match(validate.stdout, /^\s+\$ svc validate \[\.\.\.paths\]$/m);
  assert.match(validate.stdout, /-C, --config-dir <paths>/);
  assert.is(validate.status, 0);
});

test('without a subcommand svc starts the service: without a config file that is a configuration error (78)', () => {
  const { status, stdout, stderr } = svc(['--config', '/nonexistent/svc.yaml']);
  assert.is(stdout, '');
  assert.match(stderr, /ERROR svc: Configuration error: \/nonexistent\/svc\.yaml: could not read the file: ENOENT/);
  assert.is(status, 78);
});

test('an unknown command is a usage error', () => {
  const { status, stderr } = svc(['frobnicate']);
  assert.is(stderr, "svc: unknown command 'frobnicate'\n");
  assert.is(status, 64);
});

test('an unknown root option is a usage error, named as written', () => {
  const { status, stderr } = svc(['--frobnicate']);
  assert.is(stderr, 'svc: Unknown option `--frobnicate`\n');
  assert.is(status, 64);
  assert.is(svc(['vrl', '--print-objects']).stderr, 'svc: Unknown option `--print-objects`\n');
});

test.run();
