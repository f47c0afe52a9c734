// Bad configurations through the real `svc` executable: every problem of a stage is reported at once, each
// naming its file, component and option, nothing starts (no output), and the exit status is 78.

import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { localProxy } from './support/proxy-server.js';
import { logLines, runSvc, tempDir, writeFiles } from './support/svc.js';

interface BadConfig {
  name: string;
  /** Relative path → content, written into a fresh temporary directory. */
  files: Record<string, string>;
  /** Command line; `<dir>` stands for the temporary directory. */
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** The whole of stderr without timestamps, `<dir>` for the temporary directory. */
  stderr: string;
}

const CONSOLE_SINK = `
sinks:
  out:
    type: console
    inputs: [in]
    encoding: { codec: json }
`;

const loading = (paths: string) => ` INFO svc: Loading configs. paths=${paths}\n`;
const error = (message: string) => `ERROR svc: Configuration error: ${message}\n`;

const CASES: BadConfig[] = [
  {
    name: 'component options: unknown option, unknown type, missing and mistyped options, enum typo, threshold 0, an id used twice',
    files: {
      'svc.yaml': `
sources:
  in:
    type: stdin
    decodng: { codec: json }
  demo:
    type: demo_log
  sock:
    type: socket
    mode: tcp
  gen:
    type: demo_logs
    format: json
    count: many
transforms:
  limit:
    type: throttle
    inputs: [in]
    threshold: 0
    window_secs: 1
sinks:
  out:
    type: console
    inputs: [limit]
    encoding: { codec: jsn }
  in:
    type: blackhole
    inputs: [gen]
`,
    },
    args: ['--config', '<dir>/svc.yaml'],
    stderr:
      loading('<dir>/svc.yaml') +
      error('<dir>/svc.yaml: sources.in: unknown option "decodng"; did you mean "decoding"?') +
      error('<dir>/svc.yaml: sources.demo: unknown source type "demo_log"; did you mean "demo_logs"?') +
      error('<dir>/svc.yaml: sources.sock: missing required option "address"') +
      error('<dir>/svc.yaml: sources.gen: option "count": expected number, got "many"') +
      error('<dir>/svc.yaml: transforms.limit: option "threshold": must be non-zero') +
      error(
        '<dir>/svc.yaml: sinks.out: option "encoding.codec": expected one of "json", "text", "logfmt", "csv", "raw_message", "native_json", got "jsn"; did you mean "json"?',
      ) +
      error('component id "in" is used twice: sources.in in <dir>/svc.yaml and sinks.in in <dir>/svc.yaml'),
  },
  {
    name: 'the graph: unknown input, wildcard matching nothing (strict), metrics into a log-only transform, a cycle',
    files: {
      'svc.yaml': `
sources:
  in:
    type: stdin
  metrics:
    type: internal_metrics
transforms:
  parse:
    type: remap
    inputs: [nope, app_*]
    source: .parsed = true
  limit:
    type: throttle
    inputs: [metrics]
    threshold: 10
    window_secs: 1
  a:
    type: filter
    inputs: [in, b]
    condition: "true"
  b:
    type: filter
    inputs: [a]
    condition: "true"
sinks:
  out:
    type: console
    inputs: [parse, limit, b]
    encoding: { codec: json }
`,
    },
    args: ['--config', '<dir>/svc.yaml'],
    stderr:
      loading('<dir>/svc.yaml') +
      error('Input "nope" for transform "parse" doesn\'t match any components.') +
      error('Input "app_*" for transform "parse" doesn\'t match any components.') +
      error('Data type mismatch between metrics ([Metric]) and limit ([Log])') +
      error('Cyclic dependency detected in the chain [ a -> b -> a ]'),
  },
  {
    name: 'the same id in two files',
    files: {
      'a.yaml': 'sources:\n  in:\n    type: stdin\n',
      'b.yaml': `sources:\n  in:\n    type: demo_logs\n    format: json\n${CONSOLE_SINK}`,
    },
    args: ['-c', '<dir>/a.yaml', '-c', '<dir>/b.yaml'],
    stderr:
      loading('<dir>/a.yaml,<dir>/b.yaml') +
      error('duplicate source id "in": defined in <dir>/a.yaml and in <dir>/b.yaml'),
  },
  {
    name: 'environment variables: missing, and required non-empty with a message',
    files: {
      'svc.yaml': `
sources:
  in:
    type: stdin
    host_key: \${NOPE}
  other:
    type: stdin
    host_key: "\${EMPTY:?a host key is needed}"
${CONSOLE_SINK}`,
    },
    args: ['--config', '<dir>/svc.yaml'],
    env: { EMPTY: '' },
    stderr:
      loading('<dir>/svc.yaml') +
      error('<dir>/svc.yaml:5: missing environment variable "NOPE"') +
      error('<dir>/svc.yaml:8: non-empty environment variable "EMPTY" required: a host key is needed'),
  },
  {
    name: 'remap programs that do not compile: every diagnostic, rendered',
    files: {
      'svc.yaml': `
sources:
  in:
    type: stdin
transforms:
  syntax:
    type: remap
    inputs: [in]
    source: ". = 1 +"
  fallible:
    type: remap
    inputs: [in]
    source: .a = upcase(.b)
sinks:
  out:
    type: console
    inputs: [syntax, fallible]
    encoding: { codec: json }
`,
    },
    args: ['--config', '<dir>/svc.yaml'],
    stderr:
      loading('<dir>/svc.yaml') +
      error(`<dir>/svc.yaml: transforms.syntax: error[E204]: syntax error
  ┌─ :1:8
  │
1 │ . = 1 +
  │        ^
  │
  │        unexpected end of program
  │        expected one of: "identifier", "function call", "\\n", "!", "("
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`) +
      error(`<dir>/svc.yaml: transforms.fallible: error[E103]: unhandled fallible assignment
  ┌─ :1:6
  │
1 │ .a = upcase(.b)
  │ ---- ^^^^^^^^^^
  │ │    │
  │ │    this expression is fallible because at least one argument's type cannot be verified to be valid
  │ │    update the expression to be infallible by adding a \`!\`: \`upcase!(.b)\`
  │ │    \`.b\` argument type is \`any\` and this function expected a parameter \`value\` of type \`string\`
  │ or change this to an infallible assignment:
  │ .a, err = upcase(.b)
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see functions characteristics documentation at https://vrl.dev/expressions/#function-call-characteristics
  = learn more about error code 103 at https://errors.vrl.dev/103
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`),
  },
  {
    name: 'a TOML and a JSON file, each with its own problems',
    files: {
      'a.toml': '[sources.in]\ntype = "stdin"\nmax_length = "big"\n',
      'b.json': JSON.stringify({
        sinks: { out: { type: 'console', inputs: ['in'], encoding: { codec: 'json' }, targett: 'stdout' } },
      }),
    },
    args: ['--config', '<dir>/a.toml', '--config', '<dir>/b.json'],
    stderr:
      loading('<dir>/a.toml,<dir>/b.json') +
      error('<dir>/a.toml: sources.in: option "max_length": expected number, got "big"') +
      error('<dir>/b.json: sinks.out: unknown option "targett"; did you mean "target"?'),
  },
  {
    name: 'TOML and JSON syntax errors, with their positions',
    files: {
      'a.toml': '[sources.in]\ntype = \n',
      'b.json': '{"sources": {"in": {}}\n',
      'c.json': '{"sources": {"in": }}',
    },
    args: ['--config', '<dir>/a.toml', '--config', '<dir>/b.json', '--config', '<dir>/c.json'],
    stderr:
      loading('<dir>/a.toml,<dir>/b.json,<dir>/c.json') +
      error('<dir>/a.toml:2:8: Invalid TOML document: invalid value') +
      error("<dir>/b.json:2:1: Expected ',' or '}' after property value") +
      error("<dir>/c.json:1:20: Unexpected token '}'"),
  },
  {
    name: 'a --config-dir layout with a bad file',
    files: {
      'conf/sources/in.yaml': 'type: stdin\n',
      'conf/sinks/out.yaml': 'type: console\ninputs: [in]\n  encoding: { codec: json }\n',
    },
    args: ['--config-dir', '<dir>/conf'],
    stderr:
      loading('<dir>/conf') + error('<dir>/conf/sinks/out.yaml:3:1: All mapping items must start at the same column'),
  },
  {
    name: 'a glob matching nothing',
    files: {},
    args: ['--config', '<dir>/nothing-*.yaml'],
    stderr: loading('<dir>/nothing-*.yaml') + error('config file not found in path: <dir>/nothing-*.yaml'),
  },
];

for (const bad of CASES) {
  test(`bad configuration: ${bad.name}`, async () => {
    const dir = tempDir();
    for (const [name, content] of Object.entries(bad.files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    const { status, stdout, stderr } = await runSvc(
      bad.args.map((arg) => arg.replace('<dir>', dir)),
      { env: bad.env, stdin: '' },
    );
    assert.is(logLines(stderr, dir), bad.stderr);
    assert.is(stdout, '');
    assert.is(status, 78);
  });
}

test('bad configuration: a source whose address is taken fails the build, named by file and id', async () => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  const { port } = taken.address() as AddressInfo;
  try {
    const dir = writeFiles({
      'svc.yaml': `sources:\n  in:\n    type: socket\n    mode: tcp\n    address: 127.0.0.1:${port}\n${CONSOLE_SINK}`,
    });
    const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')]);
    assert.is(
      logLines(stderr, dir),
      loading('<dir>/svc.yaml') +
        error(`<dir>/svc.yaml: sources.in: could not listen on 127.0.0.1:${port}: address already in use`),
    );
    assert.is(stdout, '');
    assert.is(status, 78);
  } finally {
    taken.close();
  }
});

test('wildcard_matching relaxed: a wildcard matching nothing is accepted', async () => {
  const dir = writeFiles({
    'svc.yaml': `
wildcard_matching: relaxed
sources:
  in:
    type: stdin
sinks:
  out:
    type: console
    inputs: [in, app_*]
    encoding: { codec: text }
`,
  });
  const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')], { stdin: 'hello\n' });
  assert.is(stdout, 'hello\n', stderr);
  assert.not.match(stderr, /ERROR|WARN/);
  assert.is(status, 0);
});

test('proxies in a running pipeline: a sink’s own proxy, else the environment’s (http_proxy); no warning', async () => {
  const bodies: string[] = [];
  const target = createHttpServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      bodies.push(body);
      response.end();
    });
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  const uri = `http://127.0.0.1:${(target.address() as AddressInfo).port}/ingest`;
  const [own, fromEnv] = await Promise.all([localProxy(), localProxy()]);
  const sink = (id: string, extra: string) =>
    `  ${id}:\n    type: http\n    inputs: [in]\n    uri: ${uri}\n    encoding: { codec: json }\n${extra}`;
  const dir = writeFiles({
    'svc.yaml': `sources:\n  in:\n    type: stdin\nsinks:\n${sink('a', `    proxy: { http: "${own.uri}" }\n`)}${sink('b', '')}`,
  });
  try {
    const { status, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')], {
      stdin: 'hello\n',
      env: { http_proxy: fromEnv.uri, no_proxy: '', NO_PROXY: '' },
    });
    assert.is(status, 0, stderr);
    assert.not.match(stderr, /WARN/);
    assert.equal(own.requests, [`POST ${uri}`]);
    assert.equal(fromEnv.requests, [`POST ${uri}`]);
    assert.equal(
      bodies.map((body) => (JSON.parse(body) as Array<{ message: string }>)[0]!.message),
      ['hello', 'hello'],
    );
  } finally {
    await Promise.all([own.close(), fromEnv.close(), new Promise((resolve) => target.close(resolve))]);
  }
});

test.run();
