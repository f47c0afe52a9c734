// What a Node user would write instead of stdin → log_to_metric → aggregate (bench/metrics.mjs): stream the
// demo_logs JSON lines, parse each, count requests per method and status and sum bytes per method in a map
// of series, and write the series once the input ends, as native_json metrics.
//   node bench/hand-metrics.mjs demo.ndjson > metrics.ndjson
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const series = new Map();
const add = (name, tags, value) => {
  const key = `${name}\0${tags.method}\0${tags.status ?? ''}`;
  const held = series.get(key);
  if (held) held.counter.value += value;
  else series.set(key, { name, tags, kind: 'incremental', counter: { value } });
};
const rl = createInterface({ input: createReadStream(process.argv[2]) });
rl.on('line', (line) => {
  const log = JSON.parse(line);
  const bytes = Number(log.bytes);
  if (log.status === undefined || Number.isNaN(bytes)) return;
  add('http_requests_total', { method: String(log.method), status: String(log.status) }, 1);
  add('response_bytes_total', { method: String(log.method) }, bytes);
});
rl.on('close', () => {
  process.stdout.write([...series.values()].map((metric) => JSON.stringify({ metric })).join('\n') + '\n');
});
