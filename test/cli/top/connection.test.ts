// svc top's link to the API without a terminal: the events its feed makes from a live instance (the
// components, the connection, totals and throughputs) and what it says when the instance goes away.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConnectionLost, startFeed } from '../../../cli/top/connection.js';
import type { TopEvent } from '../../../cli/top/state.js';
import { IDLE_PIPELINE, startApiInstance } from '../../host/api/support.js';
import { waitFor } from '../../host/support/svc.js';

test('the feed: components, then the connection, totals and rates as events flow; without reconnection, the loss', async () => {
  const api = await startApiInstance(IDLE_PIPELINE);
  const events: TopEvent[] = [];
  let lost: ConnectionLost | undefined;
  const feed = startFeed(
    { url: new URL(`${api.base}/graphql`), intervalMs: 100, filter: () => true, reconnect: false },
    (event) => events.push(event),
    (error) => (lost = error),
  );
  try {
    await waitFor(
      () => events.some((event) => event.type === 'connection' && event.status.state === 'connected'),
      () => JSON.stringify(events),
    );
    const components = events.find((event) => event.type === 'components');
    assert.equal(components?.type === 'components' && components.rows.map((row) => [row.id, row.kind, row.type]), [
      ['in', 'source', 'stdin'],
      ['out', 'sink', 'blackhole'],
    ]);
    api.run.child.stdin!.write('one\ntwo\nthree\n');
    const receivedByOut = () =>
      events.some(
        (event) =>
          event.type === 'totals' &&
          event.counter === 'receivedEvents' &&
          event.values.some((value) => value.id === 'out' && value.total === 3),
      );
    await waitFor(receivedByOut, () => JSON.stringify(events.slice(-12)));
    // The throughputs are the growth per interval: they add up to the total.
    const sentByIn = () =>
      events
        .flatMap((event) =>
          event.type === 'throughputs' && event.counter === 'sentEvents' && event.intervalMs === 100
            ? event.values
            : [],
        )
        .filter((value) => value.id === 'in')
        .reduce((sum, value) => sum + value.throughput, 0);
    await waitFor(
      () => sentByIn() === 3,
      () => `the throughputs of in add up to ${sentByIn()}`,
    );

    await api.stop();
    await waitFor(
      () => lost !== undefined,
      () => 'the loss',
    );
    assert.instance(lost, ConnectionLost);
    assert.equal(events.at(-1), { type: 'connection', status: { state: 'disconnected', retryMs: undefined } });
  } finally {
    await feed.stop();
    await api.stop();
  }
});

test.run();
