// The process's own logs: leveled, written to stderr as text or JSON, rate limited per call site and
// component (`--internal-log-rate-limit`), and broadcast to `internal_logs` sources (which apply their own
// window, `--internal-logs-source-rate-limit`).
//
// Vector keys its limit on the tracing call site; here a call site whose message embeds what varies from
// one occurrence to the next (an event's value, a peer, a path) names itself with the field
// `internal_log_rate_key` (e.g. `mapping_failed`), which is not written. A message of fixed text is its own
// key, and so is a one-off message such as each configuration error, which must all be written.

import { redactSecrets } from './config/redaction.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevel | 'off', number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };
const LEVEL_COLOR: Record<LogLevel, string> = {
  trace: '\x1b[35m',
  debug: '\x1b[34m',
  info: '\x1b[32m',
  warn: '\x1b[33m',
  error: '\x1b[31m',
};

export interface LogRecord {
  timestamp: Date;
  level: LogLevel;
  /** Where it comes from, e.g. `svc::topology` or `svc::sources::file`. */
  target: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}

export interface LogOutputOptions {
  level: LogLevel | 'off';
  format: 'text' | 'json';
  color: boolean;
  /** Rate limit window in seconds for stderr; 0 disables it. */
  rateLimitSecs: number;
  /** Window for the `internal_logs` sources; undefined delivers every record. */
  sourceRateLimitSecs?: number;
  /** Add stack traces to logged errors (RUST_BACKTRACE or -v). */
  backtraces: boolean;
  write(line: string): void;
}

type Listener = (record: LogRecord) => void;

/** Vector's windowed limiter: 1st occurrence passes, 2nd says it is suppressed, then silence until the
 * window ends; the next occurrence after it first reports how many were suppressed. */
class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number; message: string }>();

  constructor(private readonly windowMs: number) {}

  /** The records to emit for an occurrence of `record` under `key`. The notices name the message that
   * opened the window (Vector's wording and count: every occurrence after the first is suppressed). */
  admit(key: string, record: LogRecord, now: number): LogRecord[] {
    if (this.windowMs <= 0) return [record];
    const window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs) {
      this.windows.set(key, { start: now, count: 1, message: record.message });
      if (window === undefined || window.count < 2) return [record];
      return [
        notice(record, `Internal log [${window.message}] has been suppressed ${window.count - 1} times.`),
        record,
      ];
    }
    window.count++;
    if (window.count === 2)
      return [notice(record, `Internal log [${window.message}] is being suppressed to avoid flooding.`)];
    return [];
  }
}

function notice(record: LogRecord, message: string): LogRecord {
  return { ...record, message, fields: { ...record.fields, internal_log_rate_limit: true } };
}

/** The record with the values of the configuration's secrets replaced by their `SECRET[...]` references. */
function redacted(record: LogRecord): LogRecord {
  const message = redactSecrets(record.message);
  let fields = record.fields;
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const shown = redactSecrets(value);
    if (shown !== value) fields = { ...fields, [name]: shown };
  }
  return message === record.message && fields === record.fields ? record : { ...record, message, fields };
}

/** Where every logger writes: one per process. */
export class LogHub {
  private readonly listeners = new Set<Listener>();
  private readonly stderrLimiter: RateLimiter;
  private readonly sourceLimiter: RateLimiter | undefined;

  constructor(readonly options: LogOutputOptions) {
    this.stderrLimiter = new RateLimiter(options.rateLimitSecs * 1000);
    this.sourceLimiter =
      options.sourceRateLimitSecs === undefined ? undefined : new RateLimiter(options.sourceRateLimitSecs * 1000);
  }

  logger(target: string, fields: LogRecord['fields'] = {}): Logger {
    return new Logger(this, target, fields);
  }

  /** Receives every record at info level or above (what `internal_logs` sources emit), rate limited by
   * the source window. Returns the function that unsubscribes. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  enabled(level: LogLevel): boolean {
    return LEVEL_RANK[level] >= LEVEL_RANK[this.options.level];
  }

  /** Writes and broadcasts a record, rate limited under `key` unless the record has the field
   * `internal_log_rate_limit: false` (Vector's switch, for logs such as periodic summaries). */
  publish(record: LogRecord, key: string): void {
    // A secret's value leaves the process through no log, whoever quotes it (a URI, an error, a config value).
    record = redacted(record);
    const now = record.timestamp.getTime();
    const { internal_log_rate_limit: limit, ...fields } = record.fields;
    const unlimited = limit === false;
    if (unlimited) record = { ...record, fields };
    if (this.enabled(record.level)) {
      const admitted = unlimited ? [record] : this.stderrLimiter.admit(key, record, now);
      for (const line of admitted) this.options.write(this.format(line));
    }
    if (this.listeners.size > 0) {
      const delivered = unlimited || !this.sourceLimiter ? [record] : this.sourceLimiter.admit(key, record, now);
      for (const one of delivered) for (const listener of this.listeners) listener(one);
    }
  }

  format(record: LogRecord): string {
    if (this.options.format === 'json') {
      return (
        JSON.stringify({
          timestamp: record.timestamp.toISOString(),
          level: record.level.toUpperCase(),
          target: record.target,
          message: record.message,
          ...record.fields,
        }) + '\n'
      );
    }
    const level = record.level.toUpperCase().padStart(5);
    const fields = Object.entries(record.fields)
      .map(
        ([key, value]) => `${key}=${typeof value === 'string' && /[\s"=]/.test(value) ? JSON.stringify(value) : value}`,
      )
      .join(' ');
    const coloredLevel = this.options.color ? `${LEVEL_COLOR[record.level]}${level}\x1b[0m` : level;
    return `${record.timestamp.toISOString()} ${coloredLevel} ${record.target}: ${record.message}${fields ? ` ${fields}` : ''}\n`;
  }
}

export class Logger {
  constructor(
    private readonly hub: LogHub,
    readonly target: string,
    private readonly fields: LogRecord['fields'],
  ) {}

  /** A logger with more fields (e.g. the component's id, kind and type). */
  child(target: string, fields: LogRecord['fields'] = {}): Logger {
    return new Logger(this.hub, target, { ...this.fields, ...fields });
  }

  trace(message: string, fields?: LogRecord['fields']): void {
    this.log('trace', message, fields);
  }
  debug(message: string, fields?: LogRecord['fields']): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: LogRecord['fields']): void {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: LogRecord['fields']): void {
    this.log('warn', message, fields);
  }
  /** Logs an error; with backtraces on, an Error's stack follows. */
  error(message: string, fields?: LogRecord['fields'], error?: unknown): void {
    const stack = this.hub.options.backtraces && error instanceof Error ? error.stack : undefined;
    this.log('error', message, fields, stack);
  }

  private log(level: LogLevel, message: string, fields: LogRecord['fields'] = {}, stack?: string): void {
    if (!this.hub.enabled(level) && LEVEL_RANK[level] < LEVEL_RANK.info) return;
    const { internal_log_rate_key: callSite, ...written } = fields;
    const record: LogRecord = {
      timestamp: new Date(),
      level,
      target: this.target,
      message: stack ? `${message}\n${stack}` : message,
      fields: { ...this.fields, ...written },
    };
    // Vector's key: the call site, per component.
    this.hub.publish(record, `${this.target}\0${String(this.fields.component_id ?? '')}\0${callSite ?? message}`);
  }
}
