// The internal log's rate limit on a live instance: 10,000 events that a remap fails on, each with an error
// of its own text (it names the event's value), print the first error and one suppression notice in a
// window, while component_errors_total counts every one of them. The window is an hour, so one window
// spans the whole run however slow the machine.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resultsUntil, startApiInstance, type ApiInstance } from './api/support.js';
import { vectorDocument } from '../../cli/vector-documents.js';

const EVENTS = 10_000;

const PIPELINE = `sources:
  in:
    type: stdin
    decoding:
      codec: json
transforms:
  fail:
    type: remap
    inputs: [in]
    source: assert!(false, "event " + string!(.v) + " is bad")
sinks:
  out:
    type: blackhole
    inputs: [fail]
`;

let api: ApiInstance;
test.before(async () => {
  api = await startApiInstance(PIPELINE, '', { SVC_INTERNAL_LOG_RATE_LIMIT: '3600' });
});
test.after(async () => {
  await api.stop();
});

test('10,000 errors of distinct texts from one call site print two lines; every one is counted', async () => {
  api.run.child.stdin!.write(Array.from({ length: EVENTS }, (_, i) => `{"v":"v${i}"}\n`).join(''));
  const errorsOfFail = (result: any): number | undefined =>
    result.data?.componentErrorsTotals.find((total: any) => total.componentId === 'fail')?.metric.errorsTotal;
  const results = await resultsUntil(
    api.ws,
    vectorDocument('subscriptions/component_errors_totals.graphql'),
    { interval: 100 },
    (results) => (errorsOfFail(results.at(-1)) ?? 0) >= EVENTS,
  );
  assert.is(errorsOfFail(results.at(-1)), EVENTS);
  const lines = api.run
    .stderr()
    .split('\n')
    .filter((line) => line.includes('component_id=fail'));
  assert.equal(
    lines.map((line) => line.replace(/^\S+\s+\S+\s+\S+\s/, '').replace(/ component_kind=.*$/, '')),
    [
      'Mapping failed with event: function call error for "assert" at (0:50): event v0 is bad',
      'Internal log [Mapping failed with event: function call error for "assert" at (0:50): event v0 is bad] is being suppressed to avoid flooding.',
    ],
    api.run.stderr(),
  );
});

test.run();
