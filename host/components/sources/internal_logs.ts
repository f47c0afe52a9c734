// `internal_logs`: the process's own log records (info and above, as the log hub delivers them to
// subscribers, rate limited by `--internal-logs-source-rate-limit`) as log events with Vector's fields:
// message, metadata (kind, level, module_path, target), host, pid, source_type, timestamp and each field of
// the record. In Vector's log namespace host, pid, source type and the time it was taken go to the metadata
// (`%internal_logs.host`, `%internal_logs.pid`, `%vector.*`) and the record keeps its `timestamp`. Records
// that pile up while the pipeline is slow are dropped oldest first and counted.

import { z } from 'zod';
import { encodeBatch } from '../../../abi/batch.js';
import type { InputEvent } from '../../../abi/batch.js';
import type { LogRecord } from '../../log.js';
import type { ComponentEnv, SourceDefinition } from '../component.js';
import {
  logNamespaceOf,
  logNamespaceOption,
  sourceStamp,
  stampAt,
  stampSource,
  type Stamp,
  type StampOrigin,
} from '../support/decoding.js';

const options = z.strictObject({
  host_key: z.string().optional(),
  pid_key: z.string().default('pid'),
  log_namespace: logNamespaceOption,
});
type InternalLogsOptions = z.infer<typeof options>;

function logEvent(record: LogRecord, options: InternalLogsOptions, env: ComponentEnv, origin: StampOrigin): InputEvent {
  const schema = env.globals.log_schema;
  const event: Stamp = { ...record.fields };
  stampAt(event, schema.message_key || 'message', record.message);
  event.metadata = {
    kind: 'event',
    level: record.level.toUpperCase(),
    module_path: record.target,
    target: record.target,
  };
  if (origin.logNamespace === 'legacy') {
    stampAt(event, schema.source_type_key, 'internal_logs');
    stampAt(event, schema.timestamp_key, record.timestamp);
    stampAt(event, options.host_key ?? schema.host_key, env.hostname);
    stampAt(event, options.pid_key, process.pid);
    return { event };
  }
  // Vector's tracing events carry their time as `timestamp`, whatever the namespace.
  event.timestamp = record.timestamp;
  const metadata = stampSource(sourceStamp(env, origin), origin, undefined, ['pid'], process.pid);
  return { metadata, event };
}

const definition: SourceDefinition<InternalLogsOptions> = {
  kind: 'source',
  type: 'internal_logs',
  description: 'Expose all log and trace messages emitted by the running instance.',
  options,
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  async build(options, env) {
    const origin = { sourceType: 'internal_logs', logNamespace: logNamespaceOf(env, options.log_namespace) };
    // Subscribed from the start, so the records of the start-up are not lost.
    const limit = env.chunkSize * 4;
    const pending: LogRecord[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = env.logHub.subscribe((record) => {
      if (pending.length >= limit) env.telemetry.discarded(pending.splice(0, 1).length, false);
      pending.push(record);
      wake?.();
    });
    return {
      async run(context) {
        const stop = () => wake?.();
        context.shutdown.addEventListener('abort', stop, { once: true });
        try {
          while (!context.shutdown.aborted || pending.length > 0) {
            if (pending.length === 0) {
              await new Promise<void>((resolve) => (wake = resolve));
              wake = undefined;
              continue;
            }
            if (context.shutdown.aborted) unsubscribe();
            const records = pending.splice(0, env.chunkSize);
            const events = records.map((record) => logEvent(record, options, env, origin));
            await context.send({ bytes: encodeBatch(events, 0), count: events.length });
          }
        } finally {
          unsubscribe();
          context.shutdown.removeEventListener('abort', stop);
        }
      },
    };
  },
};

export default definition;
