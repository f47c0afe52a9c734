// The topology graph: components, their output ports, and the edges `inputs` draw between them. Built and
// checked before anything starts; every problem is reported at once, in Vector's words.

import type { ComponentDefinition, ComponentKind, OutputPort } from '../components/component.js';
import type { ProxyOptions } from '../config/common.js';
import type { EventKind } from './batch.js';

export interface ComponentSpec {
  id: string;
  kind: ComponentKind;
  type: string;
  definition: ComponentDefinition;
  /** Component-specific options, validated by the definition's schema. */
  options: unknown;
  /** `inputs` as configured (transforms and sinks). */
  inputs: readonly string[];
  /** Sources and sinks: their own `proxy` table, when set. */
  proxy?: ProxyOptions;
}

/** `<id>` for a component's default output, `<id>.<name>` for a named one. */
export function outputId(component: string, output: string | undefined): string {
  return output === undefined ? component : `${component}.${output}`;
}

interface Edge {
  from: string;
  output: string | undefined;
  to: string;
}

export interface Graph {
  components: Map<string, ComponentSpec>;
  ports: Map<string, OutputPort[]>;
  edges: Edge[];
  /** Transforms and sinks in an order where every component comes after its inputs. */
  order: string[];
  warnings: string[];
}

export class TopologyError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('\n'));
  }
}

/** Matches Vector's wildcard inputs: `*` stands for any run of characters. */
function wildcard(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

export function buildGraph(specs: readonly ComponentSpec[], wildcardMatching: 'strict' | 'relaxed'): Graph {
  const errors: string[] = [];
  const warnings: string[] = [];
  const components = new Map<string, ComponentSpec>();
  const kindsById = new Map<string, ComponentKind[]>();
  for (const spec of specs) kindsById.set(spec.id, [...(kindsById.get(spec.id) ?? []), spec.kind]);
  for (const [id, kinds] of kindsById) {
    if (kinds.length > 1) errors.push(`More than one component with name "${id}" (${kinds.join(', ')}).`);
  }
  for (const spec of specs) if (!components.has(spec.id)) components.set(spec.id, spec);

  // Output ports of sources and transforms, by the id inputs name them with.
  const ports = new Map<string, OutputPort[]>();
  const portIndex = new Map<string, { component: string; port: OutputPort }>();
  for (const spec of components.values()) {
    if (spec.kind === 'sink') continue;
    const declared =
      spec.definition.kind === 'source'
        ? spec.definition.outputs(spec.options)
        : spec.definition.kind === 'transform'
          ? spec.definition.outputs(spec.options, spec.id)
          : [];
    ports.set(spec.id, declared);
    for (const port of declared) portIndex.set(outputId(spec.id, port.name), { component: spec.id, port });
  }

  const edges: Edge[] = [];
  for (const spec of components.values()) {
    if (spec.kind === 'source') continue;
    const accepted = spec.definition.kind === 'source' ? [] : spec.definition.inputs(spec.options);
    const seen = new Set<string>();
    for (const input of spec.inputs) {
      const matches = input.includes('*')
        ? [...portIndex.keys()].filter(
            (name) => wildcard(input).test(name) && portIndex.get(name)!.component !== spec.id,
          )
        : portIndex.has(input)
          ? [input]
          : [];
      if (input === spec.id) {
        errors.push(`Self-referencing input "${input}" for ${spec.kind} "${spec.id}".`);
        continue;
      }
      if (matches.length === 0 && (!input.includes('*') || wildcardMatching === 'strict')) {
        errors.push(`Input "${input}" for ${spec.kind} "${spec.id}" doesn't match any components.`);
        continue;
      }
      for (const name of matches) {
        if (seen.has(name)) continue;
        seen.add(name);
        const { component, port } = portIndex.get(name)!;
        if (!port.kinds.some((kind) => accepted.includes(kind))) {
          errors.push(
            `Data type mismatch between ${name} (${kindList(port.kinds)}) and ${spec.id} (${kindList(accepted)})`,
          );
          continue;
        }
        edges.push({ from: component, output: port.name, to: spec.id });
      }
    }
  }

  const order = topologicalOrder(components, edges, errors);
  for (const spec of components.values()) {
    if (spec.kind !== 'sink' && !edges.some((edge) => edge.from === spec.id)) {
      warnings.push(`${spec.kind === 'source' ? 'Source' : 'Transform'} "${spec.id}" has no consumers`);
    }
  }
  if (errors.length > 0) throw new TopologyError(errors);
  return { components, ports, edges, order, warnings };
}

const KIND_NAMES: Record<EventKind, string> = { log: 'Log', metric: 'Metric', trace: 'Trace' };

function kindList(kinds: readonly EventKind[]): string {
  return `[${kinds.map((kind) => KIND_NAMES[kind]).join(', ')}]`;
}

/** Transforms and sinks after their inputs; a cycle is reported as Vector does, with its chain. */
function topologicalOrder(components: Map<string, ComponentSpec>, edges: readonly Edge[], errors: string[]): string[] {
  const consumers = new Map<string, string[]>();
  for (const edge of edges) consumers.set(edge.from, [...(consumers.get(edge.from) ?? []), edge.to]);
  const state = new Map<string, 'visiting' | 'done'>();
  const order: string[] = [];
  const reported = new Set<string>();
  const visit = (id: string, path: string[]): void => {
    const now = state.get(id);
    if (now === 'done') return;
    if (now === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      const key = [...cycle].sort().join(',');
      if (!reported.has(key)) {
        reported.add(key);
        errors.push(`Cyclic dependency detected in the chain [ ${cycle.join(' -> ')} ]`);
      }
      return;
    }
    state.set(id, 'visiting');
    for (const next of consumers.get(id) ?? []) visit(next, [...path, id]);
    state.set(id, 'done');
    order.push(id);
  };
  for (const id of components.keys()) visit(id, []);
  return order.reverse().filter((id) => components.get(id)!.kind !== 'source');
}
