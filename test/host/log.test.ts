import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LogHub, type LogOutputOptions, type LogRecord } from '../../host/log.js';

function hub(options: Partial<LogOutputOptions> = {}) {
  const lines: string[] = [];
  const logs = new LogHub({
    level: 'info',
    format: 'text',
    color: false,
    rateLimitSecs: 10,
    backtraces: false,
    write: (line) => lines.push(line),
    ...options,
  });
  return { logs, lines };
}

const at = (seconds: number, message = 'Disk full.', fields: LogRecord['fields'] = {}): LogRecord => ({
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)),
  level: 'warn',
  target: 'svc::sinks::file',
  message,
  fields,
});

test('text lines: time, level, target, message, fields (quoted when they hold spaces)', () => {
  const { logs, lines } = hub();
  logs.logger('svc::sinks::file', { component_id: 'out' }).info('Opened file.', { path: '/tmp/a b.log', count: 2 });
  assert.match(
    lines[0]!,
    /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}INFO svc::sinks::file: Opened file\. component_id=out path="\/tmp\/a b\.log" count=2\n$/,
  );
});

test('JSON lines carry the same as fields', () => {
  const { logs, lines } = hub({ format: 'json' });
  logs.logger('svc').warn('Slow.', { component_id: 'x' });
  const record = JSON.parse(lines[0]!) as Record<string, unknown>;
  assert.equal(
    { ...record, timestamp: undefined },
    { timestamp: undefined, level: 'WARN', target: 'svc', message: 'Slow.', component_id: 'x' },
  );
});

test('levels below the configured one are not written', () => {
  const { logs, lines } = hub({ level: 'warn' });
  const log = logs.logger('svc');
  log.info('info');
  log.debug('debug');
  log.warn('warn');
  assert.is(lines.length, 1);
});

test('the rate limit: first occurrence, a suppression notice, silence, then a count when the window ends', () => {
  const { logs, lines } = hub();
  for (const second of [0, 1, 2, 3]) logs.publish(at(second), 'key');
  logs.publish(at(12), 'key');
  assert.equal(
    lines.map((line) => line.replace(/^\S+\s+\S+\s+\S+\s/, '').trimEnd()),
    [
      'Disk full.',
      'Internal log [Disk full.] is being suppressed to avoid flooding. internal_log_rate_limit=true',
      'Internal log [Disk full.] has been suppressed 3 times. internal_log_rate_limit=true',
      'Disk full.',
    ],
  );
});

test('two occurrences in a window: the second is suppressed, and counted when the window ends', () => {
  const { logs, lines } = hub();
  for (const second of [0, 1, 12]) logs.publish(at(second), 'key');
  assert.equal(
    lines.map((line) => line.replace(/^\S+\s+\S+\s+\S+\s/, '').trimEnd()),
    [
      'Disk full.',
      'Internal log [Disk full.] is being suppressed to avoid flooding. internal_log_rate_limit=true',
      'Internal log [Disk full.] has been suppressed 1 times. internal_log_rate_limit=true',
      'Disk full.',
    ],
  );
});

test('a call site that names itself is limited whatever its text; the key is not written', () => {
  const { logs, lines } = hub();
  const log = logs.logger('svc::transforms', { component_id: 'parse' });
  for (let i = 0; i < 10_000; i++)
    log.error(`Mapping failed with event: ${i} is not a number`, { internal_log_rate_key: 'conversion_failed' });
  // Another component's call site of the same name has a window of its own.
  logs.logger('svc::transforms', { component_id: 'other' }).error('Mapping failed with event: x', {
    internal_log_rate_key: 'conversion_failed',
  });
  assert.equal(
    lines.map((line) => line.replace(/^\S+\s+\S+\s+\S+\s/, '').trimEnd()),
    [
      'Mapping failed with event: 0 is not a number component_id=parse',
      'Internal log [Mapping failed with event: 0 is not a number] is being suppressed to avoid flooding. component_id=parse internal_log_rate_limit=true',
      'Mapping failed with event: x component_id=other',
    ],
  );
});

test('without a key, the message is the key: distinct one-off messages are all written', () => {
  const { logs, lines } = hub({ backtraces: true });
  const log = logs.logger('svc');
  for (const problem of ['a', 'b', 'c']) log.error(`Configuration error: ${problem}`);
  // With backtraces, the stack is written but does not make the key: the repeat is suppressed.
  for (let i = 0; i < 2; i++) log.error('Sink failed.', {}, new Error(`attempt ${i}`));
  const messages = lines.map((line) =>
    line
      .replace(/^\S+\s+\S+\s+\S+\s/, '')
      .split('\n')[0]!
      .trimEnd(),
  );
  assert.equal(messages, [
    'Configuration error: a',
    'Configuration error: b',
    'Configuration error: c',
    'Sink failed.',
    'Internal log [Sink failed.',
  ]);
  assert.match(lines[3]!, /\n\s+at /);
});

test('internal_log_rate_limit: false bypasses the limit, and the field is not written', () => {
  const { logs, lines } = hub();
  for (const second of [0, 1, 2])
    logs.publish(at(second, 'Collected events.', { events: second, internal_log_rate_limit: false }), 'key');
  assert.equal(
    lines.map((line) => line.replace(/^\S+\s+\S+\s+\S+\s/, '').trimEnd()),
    ['Collected events. events=0', 'Collected events. events=1', 'Collected events. events=2'],
  );
});

test('subscribers get records at info and above, with their own window', () => {
  const { logs } = hub({ level: 'off', sourceRateLimitSecs: 10 });
  const seen: string[] = [];
  const unsubscribe = logs.subscribe((record) => seen.push(record.message));
  for (const second of [0, 1, 2]) logs.publish(at(second), 'key');
  logs.logger('svc').debug('not delivered');
  unsubscribe();
  logs.publish(at(30), 'key');
  assert.equal(seen, ['Disk full.', 'Internal log [Disk full.] is being suppressed to avoid flooding.']);
});

test.run();
