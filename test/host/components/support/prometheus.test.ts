// Reading the Prometheus text exposition format as Vector does: families grouped by their TYPE lines,
// untyped samples as gauges, histograms with non-cumulative buckets, summaries, escapes, timestamps, and
// Vector's errors.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ExpositionError, parseExposition } from '../../../../host/components/support/prometheus.js';

const NOW = 1_700_000_000_000_000_000n;

test('the reference exposition: counters, untyped, escapes, histogram, summary', () => {
  const text = [
    '# HELP http_requests_total The total number of HTTP requests.',
    '# TYPE http_requests_total counter',
    'http_requests_total{method="post",code="200"} 1027 1395066363000',
    'http_requests_total{method="post",code="400"}    3 1395066363000',
    '',
    '# Escaping in label values:',
    'msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9',
    'metric_without_timestamp_and_labels 12.47',
    'something_weird{problem="division by zero"} +Inf -3982045',
    '# TYPE http_request_duration_seconds histogram',
    'http_request_duration_seconds_bucket{le="0.05"} 24054',
    'http_request_duration_seconds_bucket{le="0.1"} 33444',
    'http_request_duration_seconds_bucket{le="+Inf"} 144320',
    'http_request_duration_seconds_sum 53423',
    'http_request_duration_seconds_count 144320',
    '# TYPE rpc_duration_seconds summary',
    'rpc_duration_seconds{quantile="0.5",service="a",} 4773',
    'rpc_duration_seconds{quantile="0.99",service="a"} 76656',
    'rpc_duration_seconds_sum{service="a"} 1.7560473e+07',
    'rpc_duration_seconds_count{service="a"} 2693',
  ].join('\n');
  assert.equal(parseExposition(text, NOW), [
    {
      name: 'http_requests_total',
      kind: 'absolute',
      timestamp: 1395066363000_000_000n,
      value: { type: 'counter', value: 1027 },
      tags: { code: '200', method: 'post' },
    },
    {
      name: 'http_requests_total',
      kind: 'absolute',
      timestamp: 1395066363000_000_000n,
      value: { type: 'counter', value: 3 },
      tags: { code: '400', method: 'post' },
    },
    {
      name: 'msdos_file_access_time_seconds',
      kind: 'absolute',
      timestamp: NOW,
      value: { type: 'gauge', value: 1458255915 },
      tags: { error: 'Cannot find file:\n"FILE.TXT"', path: 'C:\\DIR\\FILE.TXT' },
    },
    {
      name: 'metric_without_timestamp_and_labels',
      kind: 'absolute',
      timestamp: NOW,
      value: { type: 'gauge', value: 12.47 },
    },
    {
      name: 'something_weird',
      kind: 'absolute',
      timestamp: -3982045_000_000n,
      value: { type: 'gauge', value: Infinity },
      tags: { problem: 'division by zero' },
    },
    {
      name: 'http_request_duration_seconds',
      kind: 'absolute',
      timestamp: NOW,
      value: {
        type: 'aggregated_histogram',
        buckets: [
          { upper_limit: 0.05, count: 24054 },
          { upper_limit: 0.1, count: 9390 },
        ],
        count: 144320,
        sum: 53423,
      },
    },
    {
      name: 'rpc_duration_seconds',
      kind: 'absolute',
      timestamp: NOW,
      value: {
        type: 'aggregated_summary',
        quantiles: [
          { quantile: 0.5, value: 4773 },
          { quantile: 0.99, value: 76656 },
        ],
        count: 2693,
        sum: 17560473,
      },
      tags: { service: 'a' },
    },
  ]);
});

test('errors name the line, as Vector words them', () => {
  const error = (text: string) => {
    try {
      parseExposition(text, NOW);
    } catch (caught) {
      assert.instance(caught, ExpositionError);
      return (caught as Error).message;
    }
    throw new Error('parsed');
  };
  assert.is(error('name{a="b"} abc'), 'parse float value error, parsing: `abc`, line: `name{a="b"} abc`');
  assert.is(error('# TYPE name sometype'), 'invalid metric type, parsing: `sometype`, line: `# TYPE name sometype`');
  assert.is(error('# TYPE h histogram\nh_bucket 1'), 'expected "le" tag for histogram metric');
  assert.is(
    error('# TYPE h histogram\nh_bucket{le="1"} -1'),
    'expected value in range [0, 18446744073709551615], found: -1',
  );
  assert.equal(parseExposition('# a comment\n# HELP x y\n', NOW), []);
});

test.run();
