// The transform types, by name. Worker threads import only this list (not the sources' and sinks' libraries).

import type { TransformDefinition } from '../component.js';

export const TRANSFORMS: readonly TransformDefinition[] = [];

export function transformDefinition(type: string): TransformDefinition {
  const definition = TRANSFORMS.find((candidate) => candidate.type === type);
  if (definition === undefined) throw new Error(`unknown transform type "${type}"`);
  return definition;
}
