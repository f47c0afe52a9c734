// The source types, by name.

import type { SourceDefinition } from '../component.js';
import demoLogs from './demo_logs.js';
import exec from './exec.js';
import file from './file.js';
import httpServer, { httpSource } from './http_server.js';
import internalLogs from './internal_logs.js';
import internalMetrics from './internal_metrics.js';
import socket from './socket.js';
import stdin from './stdin.js';
import syslog from './syslog.js';

export const SOURCES: readonly SourceDefinition[] = [
  demoLogs,
  exec,
  file,
  httpServer,
  httpSource,
  internalLogs,
  internalMetrics,
  socket,
  stdin,
  syslog,
];
