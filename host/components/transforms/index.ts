// The transform types, by name, with their option schemas (the main thread's; a worker imports runners.ts).

import type { TransformDefinition } from '../component.js';
import dedupe from './dedupe.js';
import filter from './filter.js';
import remap from './remap.js';
import route from './route.js';
import sample from './sample.js';
import throttle from './throttle.js';

export const TRANSFORMS: readonly TransformDefinition[] = [dedupe, filter, remap, route, sample, throttle];

export function transformDefinition(type: string): TransformDefinition {
  const definition = TRANSFORMS.find((candidate) => candidate.type === type);
  if (definition === undefined) throw new Error(`unknown transform type "${type}"`);
  return definition;
}
