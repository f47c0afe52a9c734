// Transform templates: one of text and fields renders in JS exactly as its program renders it, and a batch
// holding what JS does not render (other values, a missing field, a metric's view) goes to the program.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prepareTemplate, Template } from '../../../../host/components/support/template.js';
import { RemapLogs } from '../../../../host/components/support/remap-program.js';
import { encodeBatch, type InputEvent } from '../../../../abi/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import { metricEvent } from '../../../../host/components/support/metric.js';
import { componentEnv } from '../../support/env.js';

const env = componentEnv({ kind: 'transform', type: 'log_to_metric' });

/** The template rendered in JS (when it can) and by its program alone. */
async function both(text: string) {
  const plan = await prepareTemplate(text, env, 'name');
  assert.ok('parts' in plan && plan.parts !== undefined);
  const { parts: _, ...programOnly } = plan;
  const logs = new RemapLogs();
  return [await Template.create(plan, logs), await Template.create(programOnly, logs)] as const;
}

const render = (template: Template, events: InputEvent[]) =>
  template.render(encodeBatch(events, 0), events.length).values;

test('fields with plain values render in JS as the program renders them', async () => {
  const [fields, program] = await both('{{ a }}-{{ %m }}/{{ b[1] }}');
  const events: InputEvent[] = [
    { event: { a: 'GET', b: [0n, 'x'] }, metadata: { m: 12n } },
    { event: { a: true, b: [0n, null] }, metadata: { m: -3n } },
    { event: { a: 'ünï', b: [0n, false] }, metadata: { m: '' } },
  ];
  const expected = ['GET-12/x', 'true--3/<null>', 'ünï-/false'];
  assert.equal(render(fields, events), expected);
  assert.equal(render(program, events), expected);
});

test("the event's timestamp formats in JS as the program formats it, in the pipeline's time zone", async () => {
  const [time, program] = await both('app-%Y.%m.%d/%H:%M:%S%.3f %A %B %j %z %s {{ a }}');
  const instants = [
    0n,
    1_700_000_000_123_456_789n,
    -86_400_000_000_001n,
    253_402_300_799_999_999_999n,
    951_782_400n * 10n ** 9n,
  ];
  const events: InputEvent[] = instants.flatMap((nanos) => [
    { event: { a: 'x', timestamp: new Timestamp(nanos) } },
    { event: { a: 'y', timestamp: new Timestamp(nanos) } },
  ]);
  const rendered = render(time, events);
  assert.equal(rendered, render(program, events));
  assert.is(rendered[0], 'app-1970.01.01/00:00:00.000 Thursday January 001 +0000 0 x');
  // A timestamp field that is not a timestamp: the program takes the clock's time.
  const year = String(new Date().getUTCFullYear());
  assert.match(render(time, [{ event: { a: 'x', timestamp: 'yesterday' } }])[0]!, new RegExp(`^app-${year}\\.`));
});

test('a batch with a value JS does not render, a missing field or a metric is rendered by the program', async () => {
  const [fields, program] = await both('{{ a }}');
  const batches: InputEvent[][] = [
    [{ event: { a: 'x' } }, { event: { a: 1.5 } }],
    [{ event: { a: 'x' } }, { event: { a: { b: 1n } } }],
    [{ event: { a: 'x' } }, { event: {} }],
  ];
  for (const events of batches) assert.equal(render(fields, events), render(program, events));
  assert.equal(render(fields, batches[0]!), ['x', '1.5']);
  const missing = fields.render(encodeBatch(batches[2]!, 0), 2);
  assert.equal(missing.values, ['x', undefined]);
  assert.is(missing.errors.length, 1);

  const [type] = await both('{{ type }}');
  const metric = metricEvent({ name: 'm', kind: 'incremental', value: { type: 'counter', value: 1 } });
  assert.equal(render(type, [metric]), ['counter']);
});

test.run();
