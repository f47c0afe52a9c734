// Metrics made of logs (bench/pipeline.mjs runs it): demo_logs' JSON lines on stdin → log_to_metric (a
// request counter per method and status, a bytes counter per method) → aggregate → blackhole, against the
// hand-written Node stream that does the same (bench/hand-metrics.mjs). Both outputs are checked to hold the
// same metrics first (svc's through a console sink instead of the blackhole).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate } from './pipeline.mjs';

const EVENTS = 300_000;
const handScript = fileURLToPath(new URL('./hand-metrics.mjs', import.meta.url));

const config = (sink) => ({
  sources: { in: { type: 'stdin', decoding: { codec: 'json' } } },
  transforms: {
    to_metrics: {
      type: 'log_to_metric',
      inputs: ['in'],
      metrics: [
        {
          type: 'counter',
          field: 'status',
          name: 'http_requests_total',
          tags: { method: '{{method}}', status: '{{status}}' },
        },
        {
          type: 'counter',
          field: 'bytes',
          name: 'response_bytes_total',
          increment_by_value: true,
          tags: { method: '{{method}}' },
        },
      ],
    },
    per_minute: { type: 'aggregate', inputs: ['to_metrics'], interval_ms: 60_000 },
  },
  sinks: { out: { ...sink, inputs: ['per_minute'] } },
});

/** A value with its object keys sorted, to compare outputs. */
const canonical = (value) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, canonical(value[key])]),
      )
    : value;

/** The metrics of a native_json output, without timestamps, in one order. */
function metricsOf(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { timestamp: _, ...metric } = JSON.parse(line).metric;
      return JSON.stringify(canonical(metric));
    })
    .sort();
}

/** Returns the markdown row. */
export async function metricsBenchmark({ cli, work }) {
  const demoConfig = path.join(work, 'demo-json.json');
  writeFileSync(
    demoConfig,
    JSON.stringify({
      sources: { demo: { type: 'demo_logs', format: 'json', count: EVENTS, interval: 0 } },
      sinks: { out: { type: 'console', inputs: ['demo'], encoding: { codec: 'text' } } },
    }),
  );
  const demoFile = path.join(work, 'demo.ndjson');
  execFileSync('/bin/bash', ['-c', `node ${cli} -q --config ${demoConfig} > ${demoFile}`], { stdio: 'inherit' });

  const [checkConfig, benchConfig] = [
    ['metrics-check.json', { type: 'console', encoding: { codec: 'native_json' } }],
    ['metrics.json', { type: 'blackhole' }],
  ].map(([name, sink]) => {
    const file = path.join(work, name);
    writeFileSync(file, JSON.stringify(config(sink)));
    return file;
  });
  const [svcOut, handOut] = ['metrics-svc.ndjson', 'metrics-hand.ndjson'].map((name) => path.join(work, name));
  execFileSync('/bin/bash', ['-c', `node ${cli} -q --config ${checkConfig} < ${demoFile} > ${svcOut}`]);
  execFileSync('/bin/bash', ['-c', `node ${handScript} ${demoFile} > ${handOut}`]);
  const [ours, hand] = [metricsOf(svcOut), metricsOf(handOut)];
  if (JSON.stringify(ours) !== JSON.stringify(hand))
    throw new Error(
      `log_to_metric + aggregate: svc made ${ours.length} series, the hand-written stream ${hand.length}, or other values`,
    );

  const [svcSeconds, handSeconds] = alternate([
    `node ${cli} -q --config ${benchConfig} < ${demoFile}`,
    `node ${handScript} ${demoFile} > /dev/null`,
  ]);
  const rate = (s) => `${(EVENTS / s / 1e3).toFixed(0)} k`;
  console.error(`metrics: svc ${rate(svcSeconds)} ev/s, hand ${rate(handSeconds)} ev/s`);
  return [
    `| metrics: log_to_metric + aggregate, stdin (${EVENTS / 1000}k demo_logs JSON lines) → log_to_metric (2 counters) → aggregate → blackhole, spawn → exit, ev/s, median of 5 alternated runs | ${rate(svcSeconds)} | hand-written stream ${rate(handSeconds)} | ${(handSeconds / svcSeconds).toFixed(2)}× | |`,
  ];
}
