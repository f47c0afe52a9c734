// The sink types, by name.

import type { SinkDefinition } from '../component.js';

export const SINKS: readonly SinkDefinition[] = [];
