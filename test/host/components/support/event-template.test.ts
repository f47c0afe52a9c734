// Sink templates (`path`, `uri`, `topic`…): rendered in JS where the fields are plain values, by the program
// otherwise, with the same texts and errors; a batch's events grouped by what they render to.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EventTemplate, groupByKey } from '../../../../host/components/support/event-template.js';
import { decodeBatch, encodeBatch, type InputEvent } from '../../../../abi/batch.js';
import { metricEvent } from '../../../../host/components/support/metric.js';
import { toBatch } from '../../../../host/topology/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import { componentEnv } from '../../support/env.js';

const env = componentEnv({ kind: 'sink', type: 'file' });
const batch = (events: InputEvent[]) => toBatch(encodeBatch(events, 0));

test('plain fields render as the program renders them; other values, a missing field or a metric by the program', async () => {
  const template = await EventTemplate.build('path', '/logs/{{ a }}-{{ %m }}/{{ b[1] }}.log', env);
  const plain: InputEvent[] = [
    { event: { a: 'GET', b: [0n, 'x'] }, metadata: { m: 12n } },
    { event: { a: true, b: [0n, null] }, metadata: { m: -3n } },
    { event: { a: 'ünï', b: [0n, false] }, metadata: { m: '' } },
  ];
  assert.equal(template.renderEach(batch(plain)), [
    '/logs/GET-12/x.log',
    '/logs/true--3/<null>.log',
    '/logs/ünï-/false.log',
  ]);
  // One event the JS does not render sends the whole batch to the program: the plain ones come out the same.
  const mixed: InputEvent[] = [
    ...plain,
    { event: { a: 1.5, b: [0n, 'y'] }, metadata: { m: 1n } },
    { event: { a: { c: 1n }, b: [0n, 'y'] }, metadata: { m: 1n } },
    { event: { b: [0n, 'y'] }, metadata: { m: 1n } },
  ];
  assert.equal(template.renderEach(batch(mixed)), [
    '/logs/GET-12/x.log',
    '/logs/true--3/<null>.log',
    '/logs/ünï-/false.log',
    '/logs/1.5-1/y.log',
    '/logs/{"c":1}-1/y.log',
    { error: 'Missing fields on event: ["a"]' },
  ]);
  const type = await EventTemplate.build('topic', 'm-{{ type }}', env);
  const metric = metricEvent({ name: 'm', kind: 'incremental', value: { type: 'counter', value: 1 } });
  assert.equal(type.renderEach(batch([metric, { event: { type: 'x' } }])), ['m-counter', 'm-x']);
});

test('a time in a zone renders in JS as the program renders it', async () => {
  const template = await EventTemplate.build('index', 'vector-%Y.%m.%d-%H', env, { timezone: 'Europe/Paris' });
  const events: InputEvent[] = [1_700_000_000n, 1_711_846_800n, 1_729_990_800n].map((seconds) => ({
    event: { timestamp: new Timestamp(seconds * 10n ** 9n) },
  }));
  const rendered = template.renderEach(batch(events));
  assert.equal(rendered, ['vector-2023.11.14-23', 'vector-2024.03.31-03', 'vector-2024.10.27-02']);
  // A metric's timestamp is read through its view: the program renders the whole batch, the same texts.
  const metric = metricEvent({ name: 'm', kind: 'incremental', value: { type: 'counter', value: 1 } });
  assert.equal(template.renderEach(batch([...events, metric])).slice(0, 3), rendered);
});

test('groupByKey keeps each key’s events in order and leaves out those without a key', () => {
  const events: InputEvent[] = Array.from({ length: 20 }, (_, i) => ({ event: { i: BigInt(i) } }));
  const keys = events.map((_, i) => (i % 7 === 3 ? undefined : i % 3 === 0 ? 'a' : i < 10 ? 'b' : 'c'));
  const groups = groupByKey(batch(events), keys);
  assert.equal([...groups.keys()], ['a', 'b', 'c']);
  for (const [key, group] of groups) {
    const expected = keys.flatMap((k, i) => (k === key ? [BigInt(i)] : []));
    assert.equal(
      decodeBatch(group.bytes).events.map((e) => (e.event as { i: bigint }).i),
      expected,
      key,
    );
    assert.is(group.count, expected.length);
  }
});

test.run();
