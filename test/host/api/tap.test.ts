// The tap subscription (outputEventsByComponentIdPatterns) against a live instance: exactly the events of a
// deterministic pipeline at the outputs and inputs tapped, through the topology's fused paths (a source's
// frames decoded by its remap, a chain of remaps in one worker call, a remap encoding for its console
// sink); at most `limit` per interval; Vector's notifications; the renderings; Vector's own document.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApiInstance, wsClient, type ApiInstance } from './support.js';
import { RawClient } from './raw-ws.js';
import { waitFor } from '../support/svc.js';
import { vectorDocument } from '../../../cli/vector-documents.js';

const VECTOR_DOCUMENT = vectorDocument('subscriptions/output_events_by_component_id_patterns.graphql');

// stdin → a → b → out: `in`'s frames are decoded by `a`, `a` and `b` run in one worker call, `b` encodes
// for the console sink. `c` taps nothing but gives `in` a second consumer in the second instance.
const CHAIN = `sources:
  in:
    type: stdin
transforms:
  a:
    type: remap
    inputs: [in]
    source: |
      .message = upcase!(.message)
      del(.timestamp)
      del(.host)
  b:
    type: remap
    inputs: [a]
    source: |
      .n = 1
      .f = 1.5
      .g = 2.0
      .tags = ["x y", "b"]
      .nested = { "ok": true }
sinks:
  out:
    type: console
    inputs: [b]
    encoding:
      codec: json
`;

const EVENTS = `subscription($outputs: [String!]!, $inputs: [String!], $interval: Int!, $limit: Int!) {
  outputEventsByComponentIdPatterns(outputsPatterns: $outputs, inputsPatterns: $inputs, interval: $interval, limit: $limit) {
    __typename
    ... on Log { componentId componentKind componentType message timestamp json: string(encoding: JSON)
      yaml: string(encoding: YAML) logfmt: string(encoding: LOGFMT) nested: json(field: "nested") second: json(field: "tags[1]") missing: json(field: "nope") }
    ... on Metric { componentId name namespace kind valueType value tags { key value } timestamp metric: string(encoding: JSON) }
    ... on EventNotification { message notification { __typename
      ... on Matched { pattern } ... on NotMatched { pattern } ... on InvalidMatch { pattern invalidMatches } } }
  }
}`;

/** A running subscription: every list it delivered so far. */
interface Collected {
  lists: any[][];
  errors: unknown[];
  events(): any[];
  notifications(): any[];
  stop(): Promise<void>;
}

function subscribe(url: string, query: string, variables: Record<string, unknown>): Collected {
  const client = wsClient(url);
  const lists: any[][] = [];
  const errors: unknown[] = [];
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next(result) {
        if (result.errors) errors.push(...result.errors);
        else lists.push((result.data as any).outputEventsByComponentIdPatterns);
      },
      error: (error) => errors.push(error),
      complete: () => undefined,
    },
  );
  const all = () => lists.flat();
  return {
    lists,
    errors,
    events: () => all().filter((item) => item.__typename !== 'EventNotification'),
    notifications: () => all().filter((item) => item.__typename === 'EventNotification'),
    async stop() {
      unsubscribe();
      await client.dispose();
    },
  };
}

async function until(collected: Collected, condition: () => boolean, what: string): Promise<void> {
  await waitFor(
    () => condition() || collected.errors.length > 0,
    () => `${what}; got ${JSON.stringify(collected.lists)}`,
  );
  assert.equal(collected.errors, []);
}

let api: ApiInstance;
test.before(async () => {
  api = await startApiInstance(CHAIN);
});
test.after(async () => {
  await api.stop();
});

const LINES = ['one', 'two', 'three', 'four', 'five'];

test('taps see exactly the events passing outputs and inputs, through fused paths', async () => {
  const variables = { interval: 100, limit: 100, inputs: [] };
  const source = subscribe(api.ws, EVENTS, { ...variables, outputs: ['in'] });
  const first = subscribe(api.ws, EVENTS, { ...variables, outputs: ['a'] });
  const sink = subscribe(api.ws, EVENTS, { ...variables, outputs: [], inputs: ['out'] });
  const taps = [source, first, sink];
  try {
    for (const tap of taps) await until(tap, () => tap.notifications().length > 0, 'notifications first');
    api.run.child.stdin!.write(LINES.map((line) => `${line}\n`).join(''));
    const printed = await api.run.waitForLines(LINES.length);
    for (const tap of taps) await until(tap, () => tap.events().length >= LINES.length, `${LINES.length} events`);
    assert.equal(
      source.events().map((event) => event.message),
      LINES,
    );
    assert.equal(
      source.events().map((event) => [event.componentId, event.componentKind, event.componentType]),
      LINES.map(() => ['in', 'source', 'stdin']),
    );
    assert.match(source.events()[0].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(
      first.events().map((event) => event.message),
      LINES.map((line) => line.toUpperCase()),
    );
    assert.equal(first.events()[0].timestamp, null);
    // The inputs of the sink are the outputs of `b`: its events, as the sink printed them.
    assert.equal(
      sink.events().map((event) => event.componentId),
      LINES.map(() => 'b'),
    );
    assert.equal(
      sink.events().map((event) => event.json),
      printed,
    );
    // Nothing more than what passed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const tap of taps) assert.is(tap.events().length, LINES.length);
  } finally {
    for (const tap of taps) await tap.stop();
  }
});

test('events render as Vector prints them: JSON, YAML, logfmt and fields as JSON', async () => {
  const tap = subscribe(api.ws, EVENTS, { interval: 50, limit: 1, outputs: ['b'], inputs: [] });
  try {
    await until(tap, () => tap.notifications().length > 0, 'notifications first');
    api.run.child.stdin!.write('hello world\n');
    await until(tap, () => tap.events().length > 0, 'an event');
    const [event] = tap.events();
    assert.is(
      event.json,
      '{"f":1.5,"g":2.0,"message":"HELLO WORLD","n":1,"nested":{"ok":true},"source_type":"stdin","tags":["x y","b"]}',
    );
    assert.is(
      event.yaml,
      'f: 1.5\ng: 2.0\nmessage: HELLO WORLD\nn: 1\nnested:\n  ok: true\nsource_type: stdin\ntags:\n- x y\n- b\n',
    );
    // As the logfmt codec of sinks writes it (Vector's encode_logfmt: `true` as a bare key).
    assert.is(event.logfmt, 'f=1.5 g=2 message="HELLO WORLD" n=1 nested.ok source_type=stdin tags.0="x y" tags.1=b');
    assert.is(event.nested, '{"ok":true}');
    assert.is(event.second, '"b"');
    assert.is(event.missing, null);
  } finally {
    await tap.stop();
  }
});

test('at most `limit` events per interval: the first ones of each interval', async () => {
  const tap = subscribe(api.ws, EVENTS, { interval: 200, limit: 2, outputs: ['a'], inputs: [] });
  try {
    await until(tap, () => tap.notifications().length > 0, 'notifications first');
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    api.run.child.stdin!.write(lines.map((line) => `${line}\n`).join(''));
    await until(tap, () => tap.events().length >= 2, 'two events');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lists = tap.lists.filter((list) => list[0].__typename === 'Log');
    for (const list of lists) assert.ok(list.length <= 2, `a list of ${list.length} events`);
    const seen = tap.events().map((event) => event.message);
    assert.equal(seen.slice(0, 2), ['LINE 0', 'LINE 1']);
    // In order, each one of the lines.
    const indexes = seen.map((message) => lines.indexOf(message.toLowerCase()));
    assert.ok(
      indexes.every((index, i) => index >= 0 && (i === 0 || index > indexes[i - 1]!)),
      `order: ${seen}`,
    );
  } finally {
    await tap.stop();
  }
});

test('notifications: Matched, NotMatched, InvalidMatch for sinks, sources and an invalid glob', async () => {
  const tap = subscribe(api.ws, EVENTS, {
    interval: 100,
    limit: 1,
    outputs: ['[ab]', 'nope', 'ou*', '[x'],
    inputs: ['in', 'out'],
  });
  try {
    await until(tap, () => tap.notifications().length >= 8, 'eight notifications');
    // Each notification comes alone, at once.
    assert.ok(tap.lists.every((list) => list.length === 1));
    const byMessage = tap.notifications().map(({ message, notification }) => ({ message, notification }));
    assert.equal(byMessage, [
      {
        message: "[tap] Pattern '[ab]' successfully matched.",
        notification: { __typename: 'Matched', pattern: '[ab]' },
      },
      { message: "[tap] Pattern 'out' successfully matched.", notification: { __typename: 'Matched', pattern: 'out' } },
      {
        message: "[tap] Pattern 'nope' failed to match: will retry on configuration reload.",
        notification: { __typename: 'NotMatched', pattern: 'nope' },
      },
      {
        message: "[tap] Pattern 'ou*' failed to match: will retry on configuration reload.",
        notification: { __typename: 'NotMatched', pattern: 'ou*' },
      },
      {
        message: "[tap] Pattern 'in' failed to match: will retry on configuration reload.",
        notification: { __typename: 'NotMatched', pattern: 'in' },
      },
      {
        message: `[tap] Warning: sink outputs cannot be tapped. Output pattern 'ou*' matches sinks ["out"]`,
        notification: { __typename: 'InvalidMatch', pattern: 'ou*', invalidMatches: ['out'] },
      },
      {
        message:
          "[tap] Warning: pattern '[x' is not a valid glob: Pattern syntax error near position 0: invalid range pattern.",
        notification: { __typename: 'InvalidMatch', pattern: '[x', invalidMatches: [] },
      },
      {
        message: `[tap] Warning: source inputs cannot be tapped. Input pattern 'in' matches sources ["in"]`,
        notification: { __typename: 'InvalidMatch', pattern: 'in', invalidMatches: ['in'] },
      },
    ]);
  } finally {
    await tap.stop();
  }
});

test("Vector's own tap document runs unchanged", async () => {
  const tap = subscribe(api.ws, VECTOR_DOCUMENT, {
    outputsPatterns: ['*'],
    inputsPatterns: null,
    limit: 10,
    interval: 100,
    encoding: 'JSON',
  });
  try {
    await until(tap, () => tap.notifications().length > 0, 'notifications first');
    api.run.child.stdin!.write('vector\n');
    await until(tap, () => tap.events().length >= 3, 'the event at three outputs');
    assert.equal(tap.notifications()[0], {
      __typename: 'EventNotification',
      message: "[tap] Pattern '*' successfully matched.",
    });
    for (const event of tap.events()) {
      assert.equal(Object.keys(event), [
        '__typename',
        'componentId',
        'componentType',
        'componentKind',
        'message',
        'timestamp',
        'string',
      ]);
    }
    assert.equal(
      tap.events().map((event) => [event.componentId, JSON.parse(event.string).message]),
      [
        ['in', 'vector'],
        ['a', 'VECTOR'],
        ['b', 'VECTOR'],
      ],
    );
  } finally {
    await tap.stop();
  }
});

test("Vector's tap document over the legacy graphql-ws protocol (as Vector's own tap speaks it); stop ends it", async () => {
  const client = await RawClient.open(api.ws, ['graphql-ws']);
  try {
    client.send({ type: 'connection_init', payload: {} });
    await client.nextWhere((message) => message.type === 'connection_ack');
    const variables = { outputsPatterns: ['b'], inputsPatterns: [], limit: 5, interval: 50, encoding: 'JSON' };
    client.send({
      id: '1',
      type: 'start',
      payload: { query: VECTOR_DOCUMENT, variables, operationName: 'OutputEventsByComponentIdPatternsSubscription' },
    });
    const matched = await client.nextWhere((message) => message.type === 'data');
    assert.equal(matched.payload.data.outputEventsByComponentIdPatterns, [
      { __typename: 'EventNotification', message: "[tap] Pattern 'b' successfully matched." },
    ]);
    api.run.child.stdin!.write('legacy\n');
    const events = await client.nextWhere((message) => message.type === 'data');
    assert.equal(
      events.payload.data.outputEventsByComponentIdPatterns.map((event: any) => [event.componentId, event.message]),
      [['b', 'LEGACY']],
    );
    client.send({ id: '1', type: 'stop' });
    assert.equal(await client.nextWhere((message) => message.type !== 'ka'), { id: '1', type: 'complete' });
  } finally {
    client.close();
  }
});

test('a bad interval or limit is an error of the subscription, and the pipeline goes on', async () => {
  for (const [interval, limit, message] of [
    [1, 10, /interval must be an integer of at least 10 ms, got 1/],
    [100, 0, /limit must be a positive integer, got 0/],
  ] as const) {
    const tap = subscribe(api.ws, EVENTS, { interval, limit, outputs: ['*'], inputs: [] });
    await waitFor(
      () => tap.errors.length > 0,
      () => 'an error',
    );
    assert.match(JSON.stringify(tap.errors), message);
    await tap.stop();
  }
  const before = api.run.stdout().split('\n').length;
  api.run.child.stdin!.write('still\n');
  await api.run.waitForLines(before);
});

test('metrics: name, kind, value type, value and tags of a tapped metric', async () => {
  const metrics = await startApiInstance(`sources:
  m:
    type: internal_metrics
    scrape_interval_secs: 0.2
sinks:
  out:
    type: blackhole
    inputs: [m]
`);
  const tap = subscribe(metrics.ws, EVENTS, { interval: 100, limit: 200, outputs: ['m'], inputs: [] });
  try {
    await until(
      tap,
      () => tap.events().some((event) => event.name === 'component_sent_events_total'),
      'component_sent_events_total',
    );
    const metric = tap
      .events()
      .find(
        (event) => event.name === 'component_sent_events_total' && event.tags.some((tag: any) => tag.value === 'm'),
      );
    assert.ok(metric, 'the source counts its own events');
    assert.is(metric.__typename, 'Metric');
    assert.is(metric.namespace, 'svc');
    assert.is(metric.valueType, 'counter');
    assert.ok(['INCREMENTAL', 'ABSOLUTE'].includes(metric.kind));
    assert.match(metric.value, /^\d+$/);
    assert.equal(JSON.parse(metric.metric).counter, { value: Number(metric.value) });
    assert.ok(metric.tags.some((tag: any) => tag.key === 'component_id' && tag.value === 'm'));
  } finally {
    await tap.stop();
    await metrics.stop();
  }
});

test.run();
