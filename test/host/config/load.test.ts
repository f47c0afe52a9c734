import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../host/config/errors.js';
import { formatOfPath, loadConfig, type ConfigLocations, type RawConfig } from '../../../host/config/load.js';

/** Writes `files` (relative path → content) under a fresh temporary directory; returns its path. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-config-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

async function errorsOf(locations: ConfigLocations, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  try {
    await loadConfig(locations, { env });
  } catch (e) {
    if (e instanceof ConfigError) return e.errors;
    throw e;
  }
  assert.unreachable('the config loaded');
  return [];
}

function ids(config: RawConfig, section: keyof RawConfig['sections']) {
  return [...config.sections[section].values()].map((c) => `${c.id}@${c.file.split('/').pop()}`);
}

test('format from the extension, YAML otherwise', () => {
  assert.equal(['a.toml', 'a.JSON', 'a.yml', 'a.yaml', 'a.conf', 'a'].map(formatOfPath), [
    'toml',
    'json',
    'yaml',
    'yaml',
    'yaml',
    'yaml',
  ]);
});

test('merges several files of the three formats; each component remembers its file', async () => {
  const root = tree({
    'a.yaml': 'data_dir: /tmp/x\nsources:\n  in: { type: stdin }\n',
    'b.toml': '[sinks.out]\ntype = "console"\ninputs = ["in"]\n[api]\nenabled = true\n',
    'c.json': '{"transforms": {"t": {"type": "remap", "inputs": ["in"]}}, "api": {"address": "0.0.0.0:1"}}',
  });
  const config = await loadConfig(
    { files: ['a.yaml', 'b.toml', 'c.json'].map((f) => ({ path: join(root, f) })), dirs: [] },
    { env: {} },
  );
  assert.equal(config.global, { data_dir: '/tmp/x', api: { enabled: true, address: '0.0.0.0:1' } });
  assert.equal(ids(config, 'sources'), ['in@a.yaml']);
  assert.equal(ids(config, 'sinks'), ['out@b.toml']);
  assert.equal(config.sections.sinks.get('out')!.table, { type: 'console', inputs: ['in'] });
  assert.is(config.globalOrigins.get('api.address'), join(root, 'c.json'));
  assert.is(config.files.length, 3);
});

test('a forced format wins over the extension', async () => {
  const root = tree({ 'x.conf': '{"data_dir": "/d"}', 'y.yaml': 'data_dir = "/d"' });
  const config = await loadConfig(
    {
      files: [
        { path: join(root, 'x.conf'), format: 'json' },
        { path: join(root, 'y.yaml'), format: 'toml' },
      ],
      dirs: [],
    },
    { env: {} },
  );
  assert.equal(config.global, { data_dir: '/d' });
});

test('globs expand; a glob matching nothing is an error', async () => {
  const root = tree({ 'c/1.yaml': 'sources: { a: { type: x } }', 'c/2.yaml': 'sources: { b: { type: x } }' });
  const config = await loadConfig({ files: [{ path: join(root, 'c/*.yaml') }], dirs: [] }, { env: {} });
  assert.equal(ids(config, 'sources'), ['a@1.yaml', 'b@2.yaml']);
  assert.equal(await errorsOf({ files: [{ path: join(root, 'none/*.toml') }], dirs: [] }), [
    `config file not found in path: ${join(root, 'none/*.toml')}`,
  ]);
});

test('duplicate ids and conflicting globals are all reported, naming both files', async () => {
  const root = tree({
    'a.yaml': 'data_dir: /a\napi: { address: "127.0.0.1:1" }\nsinks: { out: { type: x } }\n',
    'b.yaml': 'data_dir: /b\napi: { address: "127.0.0.1:1" }\nsinks: { out: { type: y } }\n',
  });
  const a = join(root, 'a.yaml');
  const b = join(root, 'b.yaml');
  assert.equal(await errorsOf({ files: [{ path: a }, { path: b }], dirs: [] }), [
    `conflicting values for global option "data_dir": "/a" in ${a}, "/b" in ${b}`,
    `duplicate sink id "out": defined in ${a} and in ${b}`,
  ]);
});

test('parse errors carry file, line and column; a non-table document is refused', async () => {
  const root = tree({
    'a.yaml': 'a: 1\na: 2\n',
    'b.toml': 'x = 1\ny = [\n',
    'c.json': '{\n"a": 1,}',
    'd.yaml': '- 1\n',
  });
  const errors = await errorsOf({
    files: ['a.yaml', 'b.toml', 'c.json', 'd.yaml'].map((f) => ({ path: join(root, f) })),
    dirs: [],
  });
  assert.equal(errors, [
    `${join(root, 'a.yaml')}:2:1: Map keys must be unique`,
    `${join(root, 'b.toml')}:3:1: Invalid TOML document: invalid value`,
    `${join(root, 'c.json')}:2:8: Expected double-quoted property name`,
    `${join(root, 'd.yaml')}: expected a table of options at the top level, got array`,
  ]);
});

test('JSON errors whose message has no position get one: an unexpected token, the end of the text', async () => {
  const long = `{"data_dir": "/var/lib/svc",\n "sources": {"in": {"type": "stdin", "max_length": }}}`;
  const root = tree({ 'short.json': '{"a": }', 'long.json': long, 'cut.json': '{"a": [1,\n' });
  const errors = await errorsOf({
    files: ['short.json', 'long.json', 'cut.json'].map((f) => ({ path: join(root, f) })),
    dirs: [],
  });
  assert.equal(errors, [
    `${join(root, 'short.json')}:1:7: Unexpected token '}'`,
    `${join(root, 'long.json')}:2:52: Unexpected token '}'`,
    `${join(root, 'cut.json')}:2:1: Unexpected end of JSON input`,
  ]);
});

test('environment interpolation happens before parsing, and can be disabled', async () => {
  const root = tree({ 'a.yaml': 'data_dir: ${DIR}\nsources: { in: { type: "$$x" } }\n' });
  const locations = { files: [{ path: join(root, 'a.yaml') }], dirs: [] };
  const config = await loadConfig(locations, { env: { DIR: '/var/x' } });
  assert.equal(config.global, { data_dir: '/var/x' });
  assert.is(config.sections.sources.get('in')!.table.type, '$x');
  const raw = await loadConfig(locations, { env: {}, interpolate: false });
  assert.equal(raw.global, { data_dir: '${DIR}' });
  assert.equal(await errorsOf(locations), [`${join(root, 'a.yaml')}:1: missing environment variable "DIR"`]);
});

test('SECRET references are listed and kept as written; with their values, replaced after the environment', async () => {
  const root = tree({ 'a.yaml': 'sinks:\n  out: { type: x, token: "SECRET[${BACKEND}.token]" }\n' });
  const locations = { files: [{ path: join(root, 'a.yaml') }], dirs: [] };
  const raw = await loadConfig(locations, { env: { BACKEND: 'vault' } });
  assert.equal(raw.secrets, [{ backend: 'vault', key: 'token', file: join(root, 'a.yaml'), line: 2 }]);
  assert.is(raw.sections.sinks.get('out')!.table.token, 'SECRET[vault.token]');
  const resolved = await loadConfig(locations, {
    env: { BACKEND: 'vault' },
    secrets: new Map([['vault.token', 't0k3n']]),
  });
  assert.is(resolved.sections.sinks.get('out')!.table.token, 't0k3n');
  try {
    await loadConfig(locations, { env: { BACKEND: 'vault' }, secrets: new Map() });
    assert.unreachable();
  } catch (error) {
    assert.equal((error as ConfigError).errors, [
      `${join(root, 'a.yaml')}:2: no value was resolved for SECRET[vault.token]`,
    ]);
  }
});

test('--config-dir: root files merge, subdirectories hold one component per file named by its stem', async () => {
  const root = tree({
    'global.yaml': 'data_dir: /d\n',
    'api.toml': '[api]\nenabled = true\n',
    'notes.txt': 'ignored',
    'sources/in.yaml': 'type: stdin\n',
    'sources/.hidden.yaml': 'type: nope\n',
    'sources/readme.md': 'ignored',
    'transforms/parse.toml': 'type = "remap"\ninputs = ["in"]\n',
    'transforms/parse/source.json': '{"a": 1}',
    'transforms/split/route.yaml': 'x: ".a == 1"\n',
    'sinks/out.json': '{"type": "console", "inputs": ["parse"]}',
    'enrichment_tables/geo.yml': 'type: geoip\npath: /x\n',
    'tests/smoke.yaml': 'inputs: []\n',
    '.git/config.yaml': 'broken: [',
    'other/x.yaml': 'broken: [',
  });
  const config = await loadConfig({ files: [], dirs: [root] }, { env: {} });
  assert.equal(config.global, { api: { enabled: true }, data_dir: '/d' });
  assert.equal(ids(config, 'sources'), ['in@in.yaml']);
  assert.equal(config.sections.transforms.get('parse')!.table, { type: 'remap', inputs: ['in'], source: { a: 1 } });
  assert.equal(config.sections.transforms.get('split')!.table, { route: { x: '.a == 1' } });
  assert.equal(ids(config, 'sinks'), ['out@out.json']);
  assert.equal(ids(config, 'enrichment_tables'), ['geo@geo.yml']);
  assert.equal(config.tests, [{ file: join(root, 'tests/smoke.yaml'), table: { name: 'smoke', inputs: [] } }]);
});

test('--config-dir: a component defined twice (two extensions, or a file and a root file) is a duplicate', async () => {
  const root = tree({ 'sources/in.yaml': 'type: a\n', 'sources/in.toml': 'type = "b"\n' });
  assert.equal(await errorsOf({ files: [], dirs: [root, join(root, 'missing')] }), [
    `duplicate source id "in": defined in ${join(root, 'sources/in.toml')} and in ${join(root, 'sources/in.yaml')}`,
    `${join(root, 'missing')}: could not read the config directory: ENOENT: no such file or directory, scandir '${join(root, 'missing')}'`,
  ]);
});

test('unreadable files and malformed sections are reported together', async () => {
  const root = tree({ 'a.yaml': 'sources: [1]\ntests: {}\nsinks: { out: 3 }\n' });
  assert.equal(
    await errorsOf({ files: [{ path: join(root, 'a.yaml') }, { path: join(root, 'nope.yaml') }], dirs: [] }),
    [
      `${join(root, 'a.yaml')}: "sources" must be a table of source ids, got array`,
      `${join(root, 'a.yaml')}: "tests" must be an array of tests, got table`,
      `${join(root, 'a.yaml')}: sinks.out: a sink must be a table of options, got number`,
      `${join(root, 'nope.yaml')}: could not read the file: ENOENT: no such file or directory, open '${join(root, 'nope.yaml')}'`,
    ],
  );
});

test.run();
