// The source types, by name.

import type { SourceDefinition } from '../component.js';
import exec from './exec.js';
import file from './file.js';

export const SOURCES: readonly SourceDefinition[] = [exec, file];

export function sourceDefinition(type: string): SourceDefinition {
  const definition = SOURCES.find((candidate) => candidate.type === type);
  if (definition === undefined) throw new Error(`unknown source type "${type}"`);
  return definition;
}
