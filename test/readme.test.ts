// The README's pipeline example, run as the README writes it: its config (the archive sink's file moved to a
// scratch directory), its input and the output it shows.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

test('the README pipeline gives the output the README shows', () => {
  const config = /```yaml\n# pipeline\.yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  const session = /```console\n\$ printf '%s\\n' (.*) \| svc -q --config pipeline\.yaml\n([\s\S]*?)```/.exec(readme);
  assert.ok(config !== undefined && session !== null, 'the README has its pipeline.yaml and the session running it');
  const lines = [...session[1]!.matchAll(/'([^']*)'/g)].map((match) => match[1]!);
  const dir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
  const path = join(dir, 'pipeline.yaml');
  writeFileSync(path, config.replace('path: /tmp/', `path: ${dir}/`));
  const run = spawnSync(process.execPath, [join(root, 'dist/bin/svc.js'), '-q', '--config', path], {
    input: lines.map((line) => `${line}\n`).join(''),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.is(run.stderr, '');
  assert.is(run.stdout, session[2]);
  assert.is(run.status, 0);
  // The archive sink got every parsed event.
  const [archive] = readdirSync(dir).filter((name) => name.startsWith('svc-'));
  const archived = readFileSync(join(dir, archive!), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(
    archived.map((event) => event.status),
    [503, 200],
  );
});

test.run();
