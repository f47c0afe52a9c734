// The prometheus_exporter's scrape at 10,000 series, run by bench/remap.mjs; on its own it prints the figure:
//   node bench/prometheus.mjs
// The exporter holds SERIES gauges (a few tags each, as a host's metrics carry); one scrape is a GET of
// /metrics over loopback, from request to the whole text read: the first after the series were written, and
// the median of ROUNDS later ones.

import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const SERIES = 10_000;
const ROUNDS = 9;

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Seconds of the first scrape of SERIES series just written, the median of later ones, and the exposition's
 * size in bytes. */
export async function exporterScrapeBenchmark() {
  const load = (file) => import(new URL(`dist/${file}`, root).href);
  const [exporterModule, { globalSchema }, { ComponentTelemetry }, { MetricsRegistry }] = await Promise.all([
    load('host/components/sinks/prometheus_exporter.js'),
    load('host/config/global.js'),
    load('host/telemetry/component.js'),
    load('host/telemetry/metrics.js'),
  ]);
  const [{ metricEvent }, { encodeBatch }, { toBatch }] = await Promise.all([
    load('host/components/support/metric.js'),
    load('abi/batch.js'),
    load('host/topology/batch.js'),
  ]);
  const quiet = () => {};
  const env = {
    id: 'bench',
    globals: globalSchema.parse({}),
    log: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
    telemetry: new ComponentTelemetry(new MetricsRegistry(), 'bench', 'sink', 'prometheus_exporter'),
  };
  const options = exporterModule.default.options.parse({ address: '127.0.0.1:0' });
  const exporter = await exporterModule.buildPrometheusExporter(options, env);
  try {
    const events = [];
    for (let i = 0; i < SERIES; i++) {
      events.push(
        metricEvent({
          name: `metric_${i % 100}`,
          namespace: 'host',
          tags: { host: 'bench-host', device: `dev${Math.floor(i / 100)}`, mode: 'user' },
          kind: 'absolute',
          value: { type: 'gauge', value: i * 1.5 },
        }),
      );
    }
    await exporter.write(toBatch(encodeBatch(events, 0)));
    const { port } = exporter.server.address();
    const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    // The first scrape after an update writes each series' lines; later ones reuse those of unchanged series.
    let start = process.hrtime.bigint();
    const text = await scrape();
    const first = seconds(start);
    const times = [];
    for (let i = 0; i < ROUNDS; i++) {
      start = process.hrtime.bigint();
      await scrape();
      times.push(seconds(start));
    }
    return { first, seconds: median(times), bytes: Buffer.byteLength(text), series: SERIES };
  } finally {
    await exporter.close();
  }
}

/** The benchmark's row, as bench/remap.mjs lists it. */
export function exporterScrapeRow(result) {
  return `prometheus_exporter scrape at ${result.series / 1000}k series: ${(result.first * 1000).toFixed(1)} ms the first after they were written, ${(result.seconds * 1000).toFixed(1)} ms later (${(result.bytes / 1e6).toFixed(2)} MB of text)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(exporterScrapeRow(await exporterScrapeBenchmark()));
