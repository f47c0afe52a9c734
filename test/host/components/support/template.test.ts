// Transform templates: one of text and fields renders in JS exactly as its program renders it, and a batch
// holding what JS does not render (other values, a missing field, a metric's view) goes to the program.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prepareTemplate, Template } from '../../../../host/components/support/template.js';
import { RemapLogs } from '../../../../host/components/support/remap-program.js';
import { encodeBatch, type InputEvent } from '../../../../abi/batch.js';
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
