// The sink registry, and its sinks run by a real Topology: a source fans out to the file and http sinks,
// and everything a source sent is delivered by the time the topology ends.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SourceDefinition } from '../../../../host/components/component.js';
import { SINKS } from '../../../../host/components/sinks/index.js';
import { InlineExecutor } from '../../../../host/topology/executor.js';
import { buildGraph, type ComponentSpec } from '../../../../host/topology/graph.js';
import { Topology } from '../../../../host/topology/run.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { z } from 'zod';

test('the registry lists every sink type', () => {
  assert.equal([...SINKS.keys()].sort(), [
    'amqp',
    'aws_s3',
    'blackhole',
    'console',
    'elasticsearch',
    'file',
    'http',
    'influxdb_logs',
    'influxdb_metrics',
    'kafka',
    'loki',
    'mqtt',
    'nats',
    'opentelemetry',
    'prometheus_exporter',
    'prometheus_remote_write',
    'redis',
    'socket',
    'splunk_hec_logs',
    'splunk_hec_metrics',
    'vector',
  ]);
});

/** A source that sends three batches of two events. */
const threeBatches: SourceDefinition<object> = {
  kind: 'source',
  type: 'three_batches',
  description: 'test source',
  options: z.strictObject({}),
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  build: async () => ({
    async run(context) {
      for (let i = 0; i < 3; i++)
        await context.send(logBatch([{ message: `m${2 * i}` }, { message: `m${2 * i + 1}` }]));
    },
  }),
};

test('a topology delivers every event to the file and http sinks before it ends', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sinks-topology-'));
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const spec = (
    id: string,
    definition: ComponentSpec['definition'],
    options: object,
    inputs: string[] = [],
  ): ComponentSpec => ({
    id,
    kind: definition.kind,
    type: definition.type,
    definition,
    options: definition.options.parse(options),
    inputs,
  });
  const graph = buildGraph(
    [
      spec('in', threeBatches, {}),
      spec('to_file', await SINKS.get('file')!(), { path: join(dir, 'out.log'), encoding: { codec: 'text' } }, ['in']),
      spec('to_http', await SINKS.get('http')!(), { uri, encoding: { codec: 'json' }, batch: { max_events: 4 } }, [
        'in',
      ]),
    ],
    'strict',
  );
  const { globals, hostname, chunkSize, maxDecompressedSize, metrics, logHub } = componentEnv(threeBatches);
  const topology = await Topology.build(graph, {
    sinkBuffer: () => ({ maxEvents: 500, whenFull: 'block' }),
    sinkAcknowledges: () => false,
    transformBufferEvents: 1000,
    env: { globals, hostname, chunkSize, maxDecompressedSize, metrics, logHub },
    log: logHub.logger('svc::topology'),
    executor: new InlineExecutor(() => {
      throw new Error('no transforms here');
    }),
  });
  await topology.start();
  await new Promise<void>((resolve) => server.close(() => resolve()));

  const all = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'];
  assert.is(readFileSync(join(dir, 'out.log'), 'utf8'), all.map((m) => `${m}\n`).join(''));
  assert.equal(
    bodies.flatMap((body) => (JSON.parse(body) as Array<{ message: string }>).map((event) => event.message)),
    all,
  );
  assert.ok(bodies.length >= 2);
  assert.is(metrics.total('component_received_events_total', { component_id: 'to_http' }), 6);
  assert.is(metrics.total('component_errors_total'), 0);
  rmSync(dir, { recursive: true, force: true });
});

test.run();
