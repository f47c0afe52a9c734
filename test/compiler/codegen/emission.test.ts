// What a program emits (docs/abi.md §4): `.` as one event, an array as several, a scalar as `message`;
// metadata travels beside the event; errors and aborts leave the other events alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile, decodeOutput, encodeBatch, NDJSON_JSON, NDJSON_PRINT_OBJECT } from '../../../runtime/index.js';

async function ndjson(source: string, input: string, flags: number = NDJSON_JSON) {
  const program = await compile(source, { timezone: 'UTC' });
  const { output, errors } = program.runNdjson(Buffer.from(input), flags);
  return { lines: output.toString('utf8').split('\n').filter(Boolean), errors };
}

test('an object is one event, an array several, a scalar becomes message', async () => {
  assert.equal((await ndjson('.b = 2', '{"a":1}\n')).lines, ['{"a":1,"b":2}']);
  assert.equal((await ndjson('. = [{ "a": 1 }, 2, "x"]', '{}\n')).lines, [
    '{"a":1}',
    '{"message":2}',
    '{"message":"x"}',
  ]);
  assert.equal((await ndjson('. = "hello"', '{}\n')).lines, ['{"message":"hello"}']);
  assert.equal((await ndjson('. = []', '{}\n{}\n')).lines, []);
});

test('display output prints the result, or the event with PRINT_OBJECT', async () => {
  assert.equal((await ndjson('.a', '{"a":1}\n{"a":2.5}\n', 0)).lines, ['1', '2.5']);
  assert.equal((await ndjson('.b = [1.0, null]', '{"a":"x"}\n', NDJSON_PRINT_OBJECT)).lines, [
    '{ "a": "x", "b": [1.0, null] }',
  ]);
});

test('a bad line, a runtime error or an abort affects only its own event', async () => {
  const { lines, errors } = await ndjson(
    'if .n == 2 { abort "two" }; .n = to_int!(.n) * 10',
    '{"n":1}\nnot json\n{"n":2}\n{"n":"x"}\n{"n":3}\n',
  );
  assert.equal(lines, ['{"n":10}', '{"n":30}']);
  assert.equal(
    errors.map((e) => e.line),
    [1, 2, 3],
  );
  assert.is(errors[1]!.message, 'two');
  assert.match(errors[2]!.message, /^function call error for "to_int" at \(33:44\): /);
});

test('batches carry kind and metadata; each record reports its outcome', async () => {
  const program = await compile('%seen = true; if .drop == true { abort }; . = [.a, .b]');
  const input = encodeBatch(
    [
      { event: { a: { x: 1 }, b: { y: 2 } }, metadata: { source: 'test' } },
      { event: { drop: true }, kind: 'trace' },
    ],
    0,
  );
  const [first, second] = decodeOutput(program.runBatch(input));
  assert.is(first!.outcome, 'kept');
  if (first!.outcome === 'kept') {
    assert.equal(
      first!.events.map((e) => e.event),
      [{ x: 1n }, { y: 2n }],
    );
    assert.equal(first!.events[0]!.metadata, { seen: true, source: 'test' });
  }
  assert.is(second!.outcome, 'aborted');
  assert.is(second!.kind, 'trace');
});

test('the arena is reused: memory stays bounded over many batches', async () => {
  const program = await compile('.b = upcase(string!(.a)); .c = [.a, .a, { "d": .a }]');
  const input = Buffer.from('{"a":"some text to copy around"}\n'.repeat(2000));
  program.runNdjson(input, NDJSON_JSON);
  const first = program.memoryBytes();
  for (let i = 0; i < 300; i++) program.runNdjson(input, NDJSON_JSON);
  assert.is(program.memoryBytes(), first);
});

test.run();
