// The process's log hub as tests use it: plain text lines kept in an array, no colours, no rate limit unless
// a test asks for one.

import { LogHub, type LogLevel } from '../../../host/log.js';

export function textLogHub(options: { level?: LogLevel; rateLimitSecs?: number } = {}): {
  hub: LogHub;
  lines: string[];
} {
  const lines: string[] = [];
  const hub = new LogHub({
    level: options.level ?? 'info',
    format: 'text',
    color: false,
    rateLimitSecs: options.rateLimitSecs ?? 0,
    backtraces: false,
    write: (line) => lines.push(line),
  });
  return { hub, lines };
}
