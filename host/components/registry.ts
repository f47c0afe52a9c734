// Every component type of this build, by kind and name, with the loader of its module: the config layer
// validates against the schemas of the types a configuration uses (the others stay unloaded), the topology
// builds them, `svc list` names them all and `svc generate` describes them.

import type { RawConfig } from '../config/load.js';
import { ComponentRegistry, KIND_SECTION, type ComponentKind } from '../config/schema.js';
import type { ComponentDefinition, TransformDefinition } from './component.js';
import { SINKS } from './sinks/index.js';
import { SOURCES } from './sources/index.js';
import { TRANSFORMS } from './transforms/index.js';

type BuiltKind = ComponentDefinition['kind'];

const LOADERS: Record<BuiltKind, ReadonlyMap<string, () => Promise<ComponentDefinition>>> = {
  source: SOURCES,
  transform: TRANSFORMS,
  sink: SINKS,
};

/** The definitions loaded so far, by kind and type. */
const loaded: Record<BuiltKind, Map<string, ComponentDefinition>> = {
  source: new Map(),
  transform: new Map(),
  sink: new Map(),
};

const isBuilt = (kind: ComponentKind): kind is BuiltKind => kind in LOADERS;

/** The type names of a kind, sorted (none for enrichment tables, which this build does not load). */
export function componentTypes(kind: ComponentKind): string[] {
  return isBuilt(kind) ? [...LOADERS[kind].keys()].sort() : [];
}

/** Loads the module of a type this build has. */
async function load(kind: BuiltKind, type: string): Promise<ComponentDefinition> {
  const definition = loaded[kind].get(type) ?? (await LOADERS[kind].get(type)!());
  loaded[kind].set(type, definition);
  return definition;
}

/** Every component type's definition, its module loaded. */
export async function componentDefinitions(): Promise<ComponentDefinition[]> {
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
    for (const { type, options, description } of loaded[kind].values())
      registry.register({ kind, type, options, description });
  return registry;
}

/** The definition of a type that `componentRegistry` loaded (every type of a validated configuration). */
export function componentDefinition(kind: ComponentKind, type: string): ComponentDefinition | undefined {
  return isBuilt(kind) ? loaded[kind].get(type) : undefined;
}

/** A transform type's definition that `componentRegistry` loaded (the lookup of transforms run inline). */
export function transformDefinition(type: string): TransformDefinition {
  const definition = loaded.transform.get(type);
  if (definition === undefined) throw new Error(`unknown transform type "${type}"`);
  return definition as TransformDefinition;
}
