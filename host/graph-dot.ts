// `svc graph`: the topology as Vector prints it, in DOT (Graphviz) or Mermaid. Sources, then transforms, then
// sinks, each in configuration order and followed by the edges from its inputs (wildcards resolved).

import type { Config } from './config/schema.js';
import type { ComponentKind } from './components/component.js';
import type { Graph } from './topology/graph.js';

export type GraphFormat = 'dot' | 'mermaid';
export const GRAPH_FORMATS: readonly GraphFormat[] = ['dot', 'mermaid'];

/** Vector's default node shapes; a `shape` in `graph.node_attributes` replaces them. */
const DOT_SHAPES = { source: 'trapezium', transform: 'diamond', sink: 'invtrapezium' } as const;

/** Components by kind in configuration order, with their node attributes; a memory table's sink and source
 * (named by the table and its `source_key`) after the others of their kind, with the table's attributes. */
function nodes(config: Config, graph: Graph) {
  const tables = [...config.enrichment_tables.values()].flatMap((table) =>
    [...graph.components.values()]
      .filter((spec) => spec.options === table.options)
      .map((spec) => ({ kind: spec.kind, component: { ...table, id: spec.id } })),
  );
  const ofKind = (kind: ComponentKind) => tables.filter((node) => node.kind === kind);
  return [
    ...[...config.sources.values()].map((c) => ({ kind: 'source' as const, component: c })),
    ...ofKind('source'),
    ...[...config.transforms.values()].map((c) => ({ kind: 'transform' as const, component: c })),
    ...[...config.sinks.values()].map((c) => ({ kind: 'sink' as const, component: c })),
    ...ofKind('sink'),
  ];
}

/** DOT text ending with a newline: `digraph {`, one node line per component, `"a" -> "b"` edges. */
export function graphDot(config: Config, graph: Graph): string {
  let dot = 'digraph {\n';
  for (const { kind, component } of nodes(config, graph)) {
    const attributes = { shape: DOT_SHAPES[kind], ...component.graph.node_attributes };
    const text = Object.entries(attributes)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(' ');
    dot += `  ${JSON.stringify(component.id)} [${text}]\n`;
    for (const edge of graph.edges.filter((e) => e.to === component.id)) {
      const label = edge.output === undefined ? '' : ` [label=${JSON.stringify(edge.output)}]`;
      dot += `  ${JSON.stringify(edge.from)} -> ${JSON.stringify(component.id)}${label}\n`;
    }
  }
  return `${dot}}\n`;
}

/** Mermaid flowchart text as Vector prints it (including its trailing blank line). */
export function graphMermaid(config: Config, graph: Graph): string {
  const shapes = {
    source: (id: string) => `${id}[/${id}/]`,
    transform: (id: string) => `${id}{${id}}`,
    sink: (id: string) => `${id}[\\${id}\\]`,
  };
  const titles = { source: 'Sources', transform: 'Transforms', sink: 'Sinks' };
  let text = 'flowchart TD;\n';
  for (const kind of ['source', 'transform', 'sink'] as const) {
    text += `\n  %% ${titles[kind]}\n`;
    for (const { component } of nodes(config, graph).filter((node) => node.kind === kind)) {
      text += `  ${shapes[kind](component.id)}\n`;
      for (const edge of graph.edges.filter((e) => e.to === component.id)) {
        text +=
          edge.output === undefined
            ? `  ${edge.from} --> ${component.id}\n`
            : `  ${edge.from} -->|${edge.output}| ${component.id}\n`;
      }
    }
  }
  return `${text}\n`;
}
