// Every component type of this build, by kind and name, with the loader of its module: the config layer
// validates against the schemas of the types a configuration uses (the others stay unloaded), the topology
// builds them, `svc list` names them all and `svc generate` describes them.

import type { RawConfig } from '../config/load.js';
import { ComponentRegistry, KIND_SECTION, type ComponentKind } from '../config/schema.js';
import type { ComponentDefinition, EnrichmentTableDefinition, TransformDefinition } from './component.js';
import { ENRICHMENT_TABLES } from './enrichment_tables/index.js';
import { SINKS } from './sinks/index.js';
import { SOURCES } from './sources/index.js';
import { TRANSFORMS } from './transforms/index.js';

type AnyDefinition = ComponentDefinition | EnrichmentTableDefinition;
type BuiltKind = AnyDefinition['kind'];

const LOADERS: Record<BuiltKind, ReadonlyMap<string, () => Promise<AnyDefinition>>> = {
  source: SOURCES,
  transform: TRANSFORMS,
  sink: SINKS,
  enrichment_table: ENRICHMENT_TABLES,
};

/** The definitions loaded so far, by kind and type. */
const loaded: Record<BuiltKind, Map<string, AnyDefinition>> = {
  source: new Map(),
  transform: new Map(),
  sink: new Map(),
  enrichment_table: new Map(),
};

/** The type names of a kind, sorted. */
export function componentTypes(kind: ComponentKind): string[] {
  return [...LOADERS[kind].keys()].sort();
}

/** Loads the module of a type this build has. */
async function load(kind: BuiltKind, type: string): Promise<AnyDefinition> {
  const definition = loaded[kind].get(type) ?? (await LOADERS[kind].get(type)!());
  loaded[kind].set(type, definition);
  return definition;
}

/** Every component type's definition, its module loaded. */
export async function componentDefinitions(): Promise<AnyDefinition[]> {
  const kinds = Object.keys(LOADERS) as BuiltKind[];
  return Promise.all(kinds.flatMap((kind) => componentTypes(kind).map((type) => load(kind, type))));
}

/**
 * The registry to validate against: every type's name (for unknown types and their suggestions), with the
 * schemas of the types `raw` uses, or of every type without `raw`.
 */
export async function componentRegistry(raw?: RawConfig): Promise<ComponentRegistry> {
  const registry = new ComponentRegistry();
  for (const kind of Object.keys(LOADERS) as BuiltKind[]) registry.name(kind, componentTypes(kind));
  const used = raw
    ? (Object.keys(LOADERS) as BuiltKind[]).flatMap((kind) =>
        [...raw.sections[KIND_SECTION[kind]].values()]
          .map(({ table }) => table.type)
          .filter((type): type is string => typeof type === 'string' && LOADERS[kind].has(type))
          .map((type) => load(kind, type)),
      )
    : [componentDefinitions()];
  await Promise.all(used);
  for (const kind of Object.keys(LOADERS) as BuiltKind[])
    for (const { type, options, description, ownCommon } of loaded[kind].values())
      registry.register({ kind, type, options, description, ownCommon });
  return registry;
}

/** The definition of a type that `componentRegistry` loaded (every type of a validated configuration). */
export function componentDefinition(kind: ComponentKind, type: string): AnyDefinition | undefined {
  return loaded[kind].get(type);
}

/** An enrichment table type's definition that `componentRegistry` loaded. */
export function enrichmentTableDefinition(type: string): EnrichmentTableDefinition {
  const definition = loaded.enrichment_table.get(type);
  if (definition === undefined) throw new Error(`unknown enrichment table type "${type}"`);
  return definition as EnrichmentTableDefinition;
}

/** A transform type's definition that `componentRegistry` loaded (the lookup of transforms run inline). */
export function transformDefinition(type: string): TransformDefinition {
  const definition = loaded.transform.get(type);
  if (definition === undefined) throw new Error(`unknown transform type "${type}"`);
  return definition as TransformDefinition;
}
