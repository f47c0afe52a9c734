// svc top's numbers and table without a terminal: Vector's formats, the rows the API's answers make, and
// the columns fitted to a width.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesCell, countCell, humanBytes, humanCount, thousands } from '../../../cli/top/format.js';
import { componentRows, subscriptions, type ComponentsData } from '../../../cli/top/feed.js';
import {
  applyEvent,
  connectionText,
  INITIAL_STATE,
  perSecond,
  type TopEvent,
  type TopState,
} from '../../../cli/top/state.js';
import { COLUMNS, fitColumns, tableLine, tableRows } from '../../../cli/top/table.js';

test('counts: thousands separators, or SI suffixes with two decimals (Vector: 1,100 = 1.10 k); zero is --', () => {
  assert.is(thousands(0), '--');
  assert.is(thousands(999), '999');
  assert.is(thousands(1234567), '1,234,567');
  assert.is(humanCount(0), '--');
  assert.is(humanCount(999), '999');
  assert.is(humanCount(1100), '1.10 k');
  assert.is(humanCount(1_000_000), '1.00 M');
  assert.is(humanCount(2_500_000_000), '2.50 G');
});

test('bytes: below 1 KiB in bytes, then binary prefixes (KiB, MiB, GiB)', () => {
  assert.is(humanBytes(0), '--');
  assert.is(humanBytes(1023), '1023 B');
  assert.is(humanBytes(1024), '1.00 KiB');
  assert.is(humanBytes(1536), '1.50 KiB');
  assert.is(humanBytes(3 * 2 ** 20), '3.00 MiB');
  assert.is(humanBytes(5 * 2 ** 30), '5.00 GiB');
});

test('a metric cell: N/A until counted, then the total with its humanized rate per second', () => {
  assert.is(countCell(0, 0, false), 'N/A');
  assert.is(countCell(1234, 56, false), '1,234 (56/s)');
  assert.is(countCell(1234, 0, false), '1,234 (--/s)');
  assert.is(countCell(12345, 2048, true), '12.35 k (2.05 k/s)');
  assert.is(bytesCell(0, 0, true), 'N/A');
  assert.is(bytesCell(12345, 1229, false), '12,345 (1.20 KiB/s)');
  assert.is(bytesCell(12345, 1229, true), '12.06 KiB (1.20 KiB/s)');
});

test('a throughput (growth over one interval) becomes a rate per second, truncated as Vector does', () => {
  assert.is(perSecond(50, 500), 100);
  assert.is(perSecond(7, 3000), 2);
  assert.is(perSecond(0, 1000), 0);
});

/** The components query's answer for in (source) → parse (remap) → split (route: get, _unmatched) → out. */
const COMPONENTS: ComponentsData = {
  components: {
    edges: [
      {
        node: {
          __typename: 'Source',
          componentId: 'in',
          componentType: 'stdin',
          outputs: [{ outputId: '_default', sentEventsTotal: { sentEventsTotal: 10 } }],
          metrics: {
            receivedBytesTotal: { receivedBytesTotal: 2048 },
            receivedEventsTotal: null,
            sentEventsTotal: { sentEventsTotal: 10 },
          },
        },
      },
      {
        node: {
          __typename: 'Transform',
          componentId: 'split',
          componentType: 'route',
          outputs: [
            { outputId: 'get', sentEventsTotal: { sentEventsTotal: 4 } },
            { outputId: '_unmatched', sentEventsTotal: null },
          ],
          metrics: { receivedEventsTotal: { receivedEventsTotal: 10 }, sentEventsTotal: { sentEventsTotal: 4 } },
        },
      },
      {
        node: {
          __typename: 'Sink',
          componentId: 'out',
          componentType: 'blackhole',
          metrics: {
            receivedEventsTotal: { receivedEventsTotal: 4 },
            sentBytesTotal: null,
            sentEventsTotal: { sentEventsTotal: 4 },
          },
        },
      },
    ],
  },
};

function stateOf(events: TopEvent[]): TopState {
  return events.reduce(applyEvent, INITIAL_STATE);
}

/** The event a subscription's result makes, found by the subscription's field. */
function resultEvent(
  field: string,
  value: unknown,
  intervalMs = 1000,
  filter = (_id: string) => true,
): TopEvent | undefined {
  const subscription = subscriptions(intervalMs, filter).find((each) => each.query.includes(`${field}`));
  assert.ok(subscription, field);
  return subscription.event({ [field]: value });
}

test('rows from the components query: sorted by id, named outputs on lines of their own, a lone _default hidden', () => {
  const state = stateOf([{ type: 'components', rows: componentRows(COMPONENTS, () => true) }]);
  assert.equal(tableRows(state, false), [
    ['in', '--', 'source', 'stdin', 'N/A', '2,048 (--/s)', '10 (--/s)', 'N/A', '--'],
    ['out', '--', 'sink', 'blackhole', '4 (--/s)', 'N/A', '4 (--/s)', 'N/A', '--'],
    ['split', '', 'transform', 'route', '10 (--/s)', 'N/A', '4 (--/s)', 'N/A', '--'],
    ['', '_unmatched', '', '', '', '', 'N/A', '', ''],
    ['', 'get', '', '', '', '', '4 (--/s)', '', ''],
  ]);
});

test('the components filter keeps the matching ids', () => {
  const rows = componentRows(COMPONENTS, (id) => id.startsWith('o') || id === 'in');
  assert.equal(
    rows.map((row) => row.id),
    ['in', 'out'],
  );
});

test('totals and throughputs from the subscriptions, outputs included; a component a throughput leaves out had none', () => {
  const state = stateOf([
    { type: 'components', rows: componentRows(COMPONENTS, () => true) },
    ...[
      resultEvent('componentReceivedEventsTotals', [{ componentId: 'split', metric: { receivedEventsTotal: 1500 } }]),
      resultEvent('componentSentEventsTotals', [
        {
          componentId: 'split',
          metric: { sentEventsTotal: 1500 },
          outputs: [
            { outputId: 'get', sentEventsTotal: { sentEventsTotal: 600 } },
            { outputId: '_unmatched', sentEventsTotal: { sentEventsTotal: 900 } },
          ],
        },
      ]),
      resultEvent('componentErrorsTotals', [{ componentId: 'out', metric: { errorsTotal: 3 } }]),
      resultEvent('componentSentBytesTotals', [{ componentId: 'out', metric: { sentBytesTotal: 4096 } }]),
      resultEvent('componentReceivedEventsThroughputs', [{ componentId: 'out', throughput: 9 }], 500),
      resultEvent('componentReceivedEventsThroughputs', [{ componentId: 'split', throughput: 250 }], 500),
      resultEvent(
        'componentSentEventsThroughputs',
        [
          {
            componentId: 'split',
            throughput: 250,
            outputs: [
              { outputId: 'get', throughput: 100 },
              { outputId: '_unmatched', throughput: 150 },
            ],
          },
        ],
        500,
      ),
      resultEvent('componentSentBytesThroughputs', [{ componentId: 'out', throughput: 1024 }], 500),
    ].map((event) => event!),
  ]);
  assert.equal(tableRows(state, false), [
    ['in', '--', 'source', 'stdin', 'N/A', '2,048 (--/s)', '10 (--/s)', 'N/A', '--'],
    ['out', '--', 'sink', 'blackhole', '4 (--/s)', 'N/A', '4 (--/s)', '4,096 (2.00 KiB/s)', '3'],
    ['split', '', 'transform', 'route', '1,500 (500/s)', 'N/A', '1,500 (500/s)', 'N/A', '--'],
    ['', '_unmatched', '', '', '', '', '900 (300/s)', '', ''],
    ['', 'get', '', '', '', '', '600 (200/s)', '', ''],
  ]);
  assert.equal(tableRows(state, true)[2], [
    'split',
    '',
    'transform',
    'route',
    '1.50 k (500/s)',
    'N/A',
    '1.50 k (500/s)',
    'N/A',
    '--',
  ]);
});

test('components added and removed as the topology changes; the filter applies to those added', () => {
  const filter = (id: string) => id !== 'hidden';
  const added = (componentId: string, typename: string, componentType: string) =>
    resultEvent('componentAdded', { __typename: typename, componentId, componentType }, 1000, filter);
  assert.is(added('hidden', 'Sink', 'console'), undefined);
  const state = stateOf([
    { type: 'components', rows: componentRows(COMPONENTS, () => true) },
    added('a_new', 'Transform', 'filter')!,
    resultEvent('componentRemoved', { __typename: 'Sink', componentId: 'out' })!,
  ]);
  assert.equal(
    tableRows(state, false).map((line) => line.slice(0, 4)),
    [
      ['a_new', '--', 'transform', 'filter'],
      ['in', '--', 'source', 'stdin'],
      ['split', '', 'transform', 'route'],
      ['', '_unmatched', '', ''],
      ['', 'get', '', ''],
    ],
  );
});

test('a new components list (on reconnection) replaces the rows; the connection as the header says it', () => {
  let state = stateOf([
    { type: 'components', rows: componentRows(COMPONENTS, () => true) },
    { type: 'problem', message: 'boom' },
  ]);
  state = applyEvent(state, { type: 'components', rows: componentRows(COMPONENTS, (id) => id === 'in') });
  assert.equal([...state.components.keys()], ['in']);
  assert.is(state.problem, 'boom');
  state = applyEvent(state, {
    type: 'connection',
    status: { state: 'connected', since: new Date(2026, 10, 26, 9, 5, 7) },
  });
  assert.is(state.problem, undefined);
  assert.is(connectionText(state.connection), 'Connected (since 2026-11-26 09:05:07)');
  assert.is(connectionText({ state: 'connecting' }), 'Connecting...');
  assert.is(connectionText({ state: 'disconnected', retryMs: 5000 }), 'Disconnected (reconnecting every 5 seconds)');
  assert.is(connectionText({ state: 'disconnected', retryMs: undefined }), 'Disconnected');
});

test('columns: room to spare is shared equally; without enough, the widest are cut to a common width, cells with …', () => {
  assert.equal(fitColumns([2, 4, 6], 20), [3, 5, 7]);
  assert.equal(fitColumns([4, 20, 12, 3], 36), [4, 11, 11, 3]);
  assert.is(tableLine(['id', 'abcdefghij', 'x'], [4, 6, 3]), 'id    abcde…  x');
  const widths = fitColumns(
    COLUMNS.map((title) => title.length),
    120,
  );
  assert.ok(tableLine(COLUMNS, widths).length <= 120);
  assert.ok(tableLine(COLUMNS, widths).length > 110);
});

test.run();
