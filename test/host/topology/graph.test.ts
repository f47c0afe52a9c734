import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildGraph, TopologyError, type ComponentSpec } from '../../../host/topology/graph.js';
import { collectSink, listSource, splitTransform } from '../support/components.js';

const source = (id: string, kinds: Array<'log' | 'metric'> = ['log']): ComponentSpec => ({
  id,
  kind: 'source',
  type: 'list',
  definition: listSource([], { kinds }),
  options: {},
  inputs: [],
});
const transform = (id: string, inputs: string[], split = false): ComponentSpec => ({
  id,
  kind: 'transform',
  type: 'split',
  definition: splitTransform,
  options: { split },
  inputs,
});
const sink = (id: string, inputs: string[], kinds?: Array<'log' | 'metric'>): ComponentSpec => ({
  id,
  kind: 'sink',
  type: 'collect',
  definition: collectSink([], { kinds }),
  options: {},
  inputs,
});

function errorsOf(specs: ComponentSpec[], matching: 'strict' | 'relaxed' = 'strict'): string[] {
  try {
    buildGraph(specs, matching);
  } catch (error) {
    if (error instanceof TopologyError) return error.errors;
    throw error;
  }
  return [];
}

test('edges follow inputs, named outputs included, in topological order', () => {
  const graph = buildGraph([sink('out', ['t.even', 't']), transform('t', ['in'], true), source('in')], 'strict');
  const edges = graph.edges.map((e) => `${e.from}${e.output ? `.${e.output}` : ''}->${e.to}`).sort();
  assert.equal(edges, ['in->t', 't->out', 't.even->out']);
  assert.equal(graph.order, ['t', 'out']);
  assert.equal(graph.warnings, []);
});

test('wildcards match output ids, never the component itself', () => {
  const graph = buildGraph(
    [source('app_a'), source('app_b'), source('other'), transform('app_t', ['app_*']), sink('out', ['app_t'])],
    'strict',
  );
  assert.equal(
    graph.edges
      .filter((e) => e.to === 'app_t')
      .map((e) => e.from)
      .sort(),
    ['app_a', 'app_b'],
  );
  assert.equal(graph.warnings, ['Source "other" has no consumers']);
});

test('a wildcard matching nothing is an error when strict, accepted when relaxed', () => {
  const specs = [source('in'), sink('out', ['in', 'nothing_*'])];
  assert.equal(errorsOf(specs, 'strict'), ['Input "nothing_*" for sink "out" doesn\'t match any components.']);
  assert.equal(errorsOf(specs, 'relaxed'), []);
});

test("every problem is reported at once, in Vector's words", () => {
  const errors = errorsOf([
    source('in'),
    source('dup'),
    sink('dup', ['in']),
    transform('a', ['b']),
    transform('b', ['a']),
    transform('self', ['self']),
    sink('out', ['missing', 'in']),
    sink('metrics_only', ['in'], ['metric']),
  ]);
  assert.equal(errors, [
    'More than one component with name "dup" (source, sink).',
    'Self-referencing input "self" for transform "self".',
    'Input "missing" for sink "out" doesn\'t match any components.',
    'Data type mismatch between in ([Log]) and metrics_only ([Metric])',
    'Cyclic dependency detected in the chain [ a -> b -> a ]',
  ]);
});

test('a named output is only known when declared', () => {
  assert.equal(errorsOf([source('in'), transform('t', ['in']), sink('out', ['t.even'])]), [
    'Input "t.even" for sink "out" doesn\'t match any components.',
  ]);
});

test.run();
