// The sink types, by name.

import type { SinkDefinition } from '../component.js';
import blackhole from './blackhole.js';
import consoleSink from './console.js';
import file from './file.js';
import http from './http.js';
import socket from './socket.js';

export const SINKS: readonly SinkDefinition[] = [blackhole, consoleSink, file, http, socket] as SinkDefinition[];

export function sinkDefinition(type: string): SinkDefinition {
  const definition = SINKS.find((candidate) => candidate.type === type);
  if (definition === undefined) throw new Error(`unknown sink type "${type}"`);
  return definition;
}
