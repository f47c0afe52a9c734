// The console sink in a child process: the exact bytes of each codec and framing on its stdout, stderr as
// the target, and a reader that goes away (EPIPE) ending the sink quietly.

import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import consoleSink from '../../../../host/components/sinks/console.js';

const dist = new URL('../../../../', import.meta.url);

/** Runs the console sink in a child: builds it with `options`, writes `batches` batches of `events`,
 * closes it; returns its stdout, stderr and the sink's counters (printed on fd 3). */
function runChild(options: object, events: object[], batches = 1, readStdout = true) {
  const script = `
    import { writeSync } from 'node:fs';
    const { default: sink } = await import(${JSON.stringify(new URL('host/components/sinks/console.js', dist).href)});
    const { componentEnv, logBatch } = await import(${JSON.stringify(new URL('test/host/support/env.js', dist).href)});
    const env = componentEnv(sink);
    const built = await sink.build(sink.options.parse(${JSON.stringify(options)}), env);
    for (let i = 0; i < ${batches}; i++) await built.write(logBatch(${JSON.stringify(events)}));
    await built.close();
    const counters = Object.fromEntries(['component_errors_total', 'component_discarded_events_total', 'component_sent_bytes_total'].map((name) => [name, env.metrics.total(name)]));
    writeSync(3, JSON.stringify(counters));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const collect = (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    return () => Buffer.concat(chunks);
  };
  const stdout = collect(child.stdout!);
  const stderr = collect(child.stderr!);
  const counters = collect(child.stdio[3] as NodeJS.ReadableStream);
  if (!readStdout) child.stdout!.once('data', () => child.stdout!.destroy());
  return new Promise<{ code: number | null; stdout: string; stderr: string; counters: Record<string, number> }>(
    (resolve) => {
      child.on('close', (code) => {
        const text = counters().toString();
        resolve({
          code,
          stdout: stdout().toString(),
          stderr: stderr().toString(),
          counters: text ? JSON.parse(text) : {},
        });
      });
    },
  );
}

const events = [
  { message: 'hello', n: 1, f: 1.5, ok: true },
  { message: 'a "quoted" word', n: -2, tags: ['x', 'y'] },
];

const cases: Array<[string, object, string]> = [
  [
    'json',
    { codec: 'json' },
    '{"f":1.5,"message":"hello","n":1,"ok":true}\n{"message":"a \\"quoted\\" word","n":-2,"tags":["x","y"]}\n',
  ],
  ['text', { codec: 'text' }, 'hello\na "quoted" word\n'],
  ['raw_message', { codec: 'raw_message' }, 'hello\na "quoted" word\n'],
  ['logfmt', { codec: 'logfmt' }, 'f=1.5 message=hello n=1 ok\nmessage="a \\"quoted\\" word" n=-2 tags.0=x tags.1=y\n'],
  ['csv', { codec: 'csv', csv: { fields: ['message', 'n'] } }, 'hello,1\n"a ""quoted"" word",-2\n'],
  [
    'native_json',
    { codec: 'native_json' },
    '{"log":{"f":1.5,"message":"hello","n":1,"ok":true}}\n{"log":{"message":"a \\"quoted\\" word","n":-2,"tags":["x","y"]}}\n',
  ],
];

for (const [name, encoding, expected] of cases) {
  test(`${name} codec: exact bytes on stdout`, async () => {
    const { code, stdout, stderr, counters } = await runChild({ encoding }, events);
    assert.is(stderr, '');
    assert.is(code, 0);
    assert.is(stdout, expected);
    assert.is(counters.component_sent_bytes_total, Buffer.byteLength(expected));
  });
}

test('framing: character_delimited and length_delimited', async () => {
  const comma = await runChild(
    {
      encoding: { codec: 'text' },
      framing: { method: 'character_delimited', character_delimited: { delimiter: ';' } },
    },
    events,
  );
  assert.is(comma.stdout, 'hello;a "quoted" word;');
  const length = await runChild({ encoding: { codec: 'text' }, framing: { method: 'length_delimited' } }, [
    { message: 'hi' },
  ]);
  assert.is(length.stdout, '\x00\x00\x00\x02hi');
});

test('target stderr', async () => {
  const { stdout, stderr } = await runChild({ target: 'stderr', encoding: { codec: 'text' } }, events);
  assert.is(stdout, '');
  assert.is(stderr, 'hello\na "quoted" word\n');
});

test('a reader that goes away (EPIPE) ends the sink quietly: counted, no crash', async () => {
  const many = Array.from({ length: 1000 }, (_, i) => ({ message: `line ${i} ${'x'.repeat(100)}` }));
  const { code, counters } = await runChild({ encoding: { codec: 'text' } }, many, 200, false);
  assert.is(code, 0);
  assert.is(counters.component_errors_total, 1);
  assert.ok(counters.component_discarded_events_total! > 0);
  assert.ok(counters.component_discarded_events_total! < 200_000);
});

test('options: encoding is required, unknown options and codecs are errors', () => {
  const parse = (options: object) => consoleSink.options.safeParse(options);
  assert.not.ok(parse({}).success);
  assert.not.ok(parse({ encoding: { codec: 'json' }, bogus: 1 }).success);
  assert.not.ok(parse({ encoding: { codec: 'avro' } }).success);
  assert.not.ok(parse({ encoding: { codec: 'csv' } }).success);
  assert.not.ok(parse({ encoding: { codec: 'text' }, framing: { method: 'character_delimited' } }).success);
  assert.is(consoleSink.options.parse({ encoding: { codec: 'json' } }).target, 'stdout');
});

test.run();
