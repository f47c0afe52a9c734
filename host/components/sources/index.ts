// The source types, by name.

import type { SourceDefinition } from '../component.js';

export const SOURCES: readonly SourceDefinition[] = [];
