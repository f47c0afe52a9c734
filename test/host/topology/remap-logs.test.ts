import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TransformDefinition } from '../../../host/components/component.js';
import { TRANSFORMS } from '../../../host/components/transforms/index.js';
import { textLogHub } from '../support/log-hub.js';
import { InlineExecutor } from '../../../host/topology/executor.js';
import { buildGraph } from '../../../host/topology/graph.js';
import { Topology } from '../../../host/topology/run.js';
import { batchOf, collectSink, listSource } from '../support/components.js';
import { testTopologyOptions } from '../support/topology.js';

/** Runs `source` as a remap over one batch of events `{ n: 0 }` … `{ n: count - 1 }`; returns the log lines
 * written, under the process's default limit of internal logs (10 s per call site). */
async function remapLogLines(source: string, count: number): Promise<string[]> {
  const { hub, lines } = textLogHub({ rateLimitSecs: 10 });
  const remap = (await TRANSFORMS.get('remap')!()) as TransformDefinition;
  const collected: unknown[] = [];
  const events = Array.from({ length: count }, (_, n) => ({ n }));
  const graph = buildGraph(
    [
      { id: 'in', kind: 'source', type: 'list', definition: listSource([batchOf(events)]), options: {}, inputs: [] },
      {
        id: 'say',
        kind: 'transform',
        type: 'remap',
        definition: remap,
        options: remap.options.parse({ source }),
        inputs: ['in'],
      },
      { id: 'out', kind: 'sink', type: 'collect', definition: collectSink(collected), options: {}, inputs: ['say'] },
    ],
    'strict',
  );
  const topology = await Topology.build(graph, testTopologyOptions(hub, new InlineExecutor(() => remap)));
  await topology.start();
  assert.is(collected.length, count);
  return lines.filter((line) => line.includes('vrl_position='));
}

test('a log() call site writes once per rate_limit_secs whatever its messages, with its byte offset as vrl_position', async () => {
  const source = '.note = "é"\nlog("bad id " + to_string!(.n), level: "warn", rate_limit_secs: 60)';
  const lines = await remapLogLines(source, 5);
  assert.is(lines.length, 1, lines.join(''));
  assert.match(lines[0]!, / WARN .*: bad id 0 .*vrl_position=13\n$/);
  assert.ok(lines[0]!.includes('component_id=say'), lines[0]);
});

test('rate_limit_secs: 0 writes every call, the process limit of internal logs notwithstanding', async () => {
  const lines = await remapLogLines('log("each", rate_limit_secs: 0)', 4);
  assert.equal(
    lines.map((line) => line.replace(/^\S+ /, '')),
    Array(4).fill(
      ' INFO svc::transforms::remap: each component_kind=transform component_type=remap component_id=say vrl_position=0\n',
    ),
  );
});

test.run();
