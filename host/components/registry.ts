// Every component type of this build: the config layer validates against their schemas, the topology
// builds them, `svc list` and `svc generate` describe them.

import { ComponentRegistry } from '../config/schema.js';
import type { ComponentDefinition, ComponentKind } from './component.js';
import { SINKS } from './sinks/index.js';
import { SOURCES } from './sources/index.js';
import { TRANSFORMS } from './transforms/index.js';

export const COMPONENTS: readonly ComponentDefinition[] = [...SOURCES, ...TRANSFORMS, ...SINKS];

let registry: ComponentRegistry | undefined;

/** The schemas of every component type, for validation. */
export function componentRegistry(): ComponentRegistry {
  if (registry === undefined) {
    registry = new ComponentRegistry();
    for (const { kind, type, options, description } of COMPONENTS)
      registry.register({ kind, type, options, description });
  }
  return registry;
}

export function componentDefinition(kind: ComponentKind, type: string): ComponentDefinition | undefined {
  return COMPONENTS.find((definition) => definition.kind === kind && definition.type === type);
}
