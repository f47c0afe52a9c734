import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoLogsSource, seededRandom } from '../../../../host/components/sources/demo_logs.js';
import { buildSource, runSource, sourceMetadata, testEnv, vectorNamespaceEnv } from '../../support/sources.js';

const SHAPES: Record<string, RegExp> = {
  apache_common:
    /^\d+\.\d+\.\d+\.\d+ - \S+ \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "[A-Z]+ \/\S* HTTP\/\d\.\d" \d{3} \d+$/,
  apache_error:
    /^\[[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d \d{4}\] \[\w+:[\w-]+\] \[pid \d+:tid \d+\] \[client [\d.]+:\d+\] .+$/,
  syslog: /^<\d{1,3}>[1-3] \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \S+ \S+ \d+ ID\d+ - .+$/,
  bsd_syslog: /^<\d{1,3}>[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d \S+ \S+\[\d+\]: .+$/,
};

for (const [format, shape] of Object.entries(SHAPES)) {
  test(`${format}: count lines in its shape, then the source ends`, async () => {
    const source = await buildSource(
      demoLogsSource(seededRandom(7)),
      { format, count: 5, interval: 0 },
      testEnv('demo_logs'),
    );
    const run = runSource(source);
    await run.done;
    assert.is(run.events.length, 5);
    for (const event of run.events) assert.match(event.message as string, shape);
    assert.is(run.events[0]!.source_type, 'demo_logs');
    assert.is(run.events[0]!.host, 'localhost');
  });
}

test("log_namespace: the line (or the json codec's object) is the event; service and host are in %demo_logs", async () => {
  const lines = await buildSource(
    demoLogsSource(seededRandom(7)),
    { format: 'syslog', count: 2, interval: 0 },
    vectorNamespaceEnv('demo_logs'),
  );
  const run = runSource(lines);
  await run.done;
  assert.match(run.events[0] as unknown as string, SHAPES.syslog!);
  assert.equal(sourceMetadata(run.metadata[1]!, 'demo_logs'), { host: 'localhost', service: 'svc' });

  const json = runSource(
    await buildSource(
      demoLogsSource(seededRandom(1)),
      { format: 'json', count: 1, interval: 0, decoding: { codec: 'json' }, log_namespace: true },
      testEnv('demo_logs'),
    ),
  );
  await json.done;
  assert.ok('user-identifier' in json.events[0]!);
  assert.not.ok('source_type' in json.events[0]!);
  assert.equal(sourceMetadata(json.metadata[0]!, 'demo_logs'), { host: 'localhost', service: 'svc' });
});

test('json: lines are JSON objects with the HTTP log fields; decoding json parses them', async () => {
  const source = await buildSource(
    demoLogsSource(seededRandom(1)),
    { format: 'json', count: 3, interval: 0, decoding: { codec: 'json' } },
    testEnv('demo_logs'),
  );
  const run = runSource(source);
  await run.done;
  assert.is(run.events.length, 3);
  for (const event of run.events) {
    for (const key of [
      'host',
      'user-identifier',
      'datetime',
      'method',
      'request',
      'protocol',
      'status',
      'bytes',
      'referer',
    ])
      assert.ok(key in event, key);
  }
});

test('json: each line is the text JSON.stringify writes of its object', async () => {
  const run = runSource(
    await buildSource(
      demoLogsSource(seededRandom(3)),
      { format: 'json', count: 3000, interval: 0 },
      testEnv('demo_logs'),
    ),
  );
  await run.done;
  assert.is(run.events.length, 3000);
  for (const { message } of run.events) assert.is(JSON.stringify(JSON.parse(message as string)), message);
});

test('shuffle picks from lines, numbered with sequence; a shuffle without lines is an option error', async () => {
  const definition = demoLogsSource(seededRandom(3));
  const run = runSource(
    await buildSource(
      definition,
      { format: 'shuffle', lines: ['a', 'b'], sequence: true, count: 4, interval: 0 },
      testEnv('demo_logs'),
    ),
  );
  await run.done;
  assert.is(run.events.length, 4);
  run.events.forEach((event, n) => assert.match(event.message as string, new RegExp(`^${n} [ab]$`)));
  assert.not.ok(definition.options.safeParse({ format: 'shuffle' }).success);
});

test('interval 0 fills batches up to chunkSize; with an interval it waits between lines until shutdown', async () => {
  const fast = runSource(
    await buildSource(
      demoLogsSource(seededRandom(3)),
      { format: 'syslog', count: 25, interval: 0 },
      testEnv('demo_logs', { chunkSize: 10 }),
    ),
  );
  await fast.done;
  assert.equal(
    fast.batches.map((b) => b.count),
    [10, 10, 5],
  );

  const slow = runSource(
    await buildSource(demoLogsSource(seededRandom(3)), { format: 'syslog', interval: 60 }, testEnv('demo_logs')),
  );
  await slow.waitFor(1);
  slow.shutdown.abort();
  await slow.done;
  assert.is(slow.events.length, 1);
});

test("count: absent runs until shutdown; Vector's default (usize::MAX) is taken as that; fractions are refused", () => {
  const { options } = demoLogsSource(seededRandom(3));
  assert.is(options.parse({ format: 'syslog' }).count, undefined);
  assert.is(options.parse({ format: 'syslog', count: Number('9223372036854775807') }).count, Number.MAX_SAFE_INTEGER);
  assert.not.ok(options.safeParse({ format: 'syslog', count: 1.5 }).success);
});

test.run();
