// The prometheus_scrape source: an exposition server's metrics with the instance and endpoint tags, the
// query parameters and Accept header sent, errors counted; then a real Prometheus's own /metrics.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import prometheusScrape from '../../../../host/components/sources/prometheus_scrape.js';
import { startPrometheus } from '../../support/prometheus-server.js';
import { startSource } from '../../support/source-harness.js';
import { waitFor } from '../../../support/wait-for.js';

/** A server answering every request with `status` and `body`, recording the requests. */
async function expositionServer(status: number, body: string) {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const EXPOSITION = [
  '# TYPE jobs_total counter',
  'jobs_total{instance="elsewhere:1"} 7',
  '# TYPE queue gauge',
  'queue 3',
  '',
].join('\n');

test('metrics with the instance and endpoint tags; the query and Accept: text/plain sent', async () => {
  const server = await expositionServer(200, EXPOSITION);
  const endpoint = `http://127.0.0.1:${server.port}/metrics`;
  const source = await startSource(prometheusScrape, {
    endpoints: [endpoint],
    instance_tag: 'instance',
    endpoint_tag: 'endpoint',
    query: { 'match[]': ['{job="a"}', '{job="b"}'] },
  });
  try {
    await source.waitFor(2);
  } finally {
    await source.stop();
    await server.close();
  }
  const url = `${endpoint}?match%5B%5D=%7Bjob%3D%22a%22%7D&match%5B%5D=%7Bjob%3D%22b%22%7D`;
  assert.is(server.requests[0]!.url, url.slice(url.indexOf('/metrics')));
  assert.is(server.requests[0]!.headers.accept, 'text/plain');
  const [jobs, queue] = source.events;
  assert.equal(jobs!.tags, {
    instance: `127.0.0.1:${server.port}`,
    exported_instance: 'elsewhere:1',
    endpoint: url,
  });
  assert.equal(jobs!.counter, { value: 7 });
  assert.is(jobs!.kind, 'absolute');
  assert.equal(queue!.tags, { instance: `127.0.0.1:${server.port}`, endpoint: url });
  assert.equal(queue!.gauge, { value: 3 });
});

test('honor_labels keeps a scraped instance label', async () => {
  const server = await expositionServer(200, EXPOSITION);
  const source = await startSource(prometheusScrape, {
    endpoints: [`http://127.0.0.1:${server.port}/metrics`],
    instance_tag: 'instance',
    honor_labels: true,
  });
  try {
    await source.waitFor(2);
  } finally {
    await source.stop();
    await server.close();
  }
  assert.equal(source.events[0]!.tags, { instance: 'elsewhere:1' });
});

test('an error status and an exposition that does not parse are counted as errors', async () => {
  const failing = await expositionServer(500, 'no');
  const garbled = await expositionServer(200, 'name{a="b"} abc\n');
  const source = await startSource(prometheusScrape, {
    endpoints: [`http://127.0.0.1:${failing.port}/metrics`, `http://127.0.0.1:${garbled.port}/metrics`],
  });
  try {
    await waitFor(
      () => source.metrics.total('component_errors_total') >= 2,
      () => `${source.metrics.total('component_errors_total')} errors`,
    );
  } finally {
    await source.stop();
    await failing.close();
    await garbled.close();
  }
  assert.is(source.metrics.total('component_errors_total', { error_type: 'request_failed' }), 1);
  assert.is(source.metrics.total('component_errors_total', { error_type: 'parser_failed' }), 1);
  assert.is(source.events.length, 0);
});

test("a real Prometheus's own metrics: its build info gauge and histograms", async () => {
  const prometheus = await startPrometheus();
  const source = await startSource(prometheusScrape, { endpoints: [`${prometheus.url}/metrics`] });
  try {
    await source.waitFor(1);
  } finally {
    await source.stop();
    await prometheus.stop();
  }
  const build = source.events.find((event) => event.name === 'prometheus_build_info');
  assert.ok(build, 'prometheus_build_info scraped');
  assert.equal(build!.gauge, { value: 1 });
  assert.match((build!.tags as Record<string, string>).version!, /^2\.\d+\./);
  const histogram = source.events.find((event) => event.aggregated_histogram !== undefined);
  assert.ok(histogram, 'a histogram scraped');
  const counter = source.events.find((event) => event.name === 'process_cpu_seconds_total');
  assert.ok(counter?.counter, 'a counter scraped');
});

test.run();
