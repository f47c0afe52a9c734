import { test } from 'uvu';
import * as assert from 'uvu/assert';
import route from '../../../../host/components/transforms/route.js';
import { batchOf, eventsOf, runnerOf } from '../../support/components.js';

test('route sends an event to every route it matches, the rest to _unmatched', async () => {
  const options = { route: { big: 'int!(.n) > 5', even: 'int!(.n) % 2 == 0' } };
  assert.equal(
    route.outputs(route.options.parse(options), 'r').map((port) => port.name),
    ['big', 'even', '_unmatched'],
  );
  const { runner } = await runnerOf(route, options);
  const result = runner.process(batchOf([{ n: 1 }, { n: 6 }, { n: 7 }, { n: 2 }]));
  const byOutput = Object.fromEntries(result.outputs.map(({ output, batch }) => [output, eventsOf(batch)]));
  assert.equal(byOutput, { big: [{ n: 6n }, { n: 7n }], even: [{ n: 6n }, { n: 2n }], _unmatched: [{ n: 1n }] });
});

test('route with reroute_unmatched false discards unmatched events', async () => {
  const { runner } = await runnerOf(route, { route: { big: 'int!(.n) > 5' }, reroute_unmatched: false });
  const result = runner.process(batchOf([{ n: 1 }, { n: 6 }]));
  assert.equal(
    result.outputs.map(({ output }) => output),
    ['big'],
  );
  assert.equal(result.discarded, [{ count: 1, intentional: true, reason: 'Event did not match any route.' }]);
});

test('route names _unmatched and _default are reserved', () => {
  for (const name of ['_unmatched', '_default']) {
    const parsed = route.options.safeParse({ route: { [name]: 'true' } });
    assert.not.ok(parsed.success);
    assert.match(parsed.error!.message, /reserved output name/);
  }
});

test.run();
