// The fields a source adds to every log event it decodes (Vector's legacy log namespace): its type, the time
// it read the event and the host, under the global `log_schema` keys, plus the source's own fields. The codec
// module inserts each one only where the event lacks it.

import type { ComponentEnv } from '../component.js';
import { Timestamp } from '../../../abi/values.js';

/** A `log_schema` key or a source's `*_key` option as a field name; `""` means "leave the field out". */
function fieldName(key: string): string {
  return key.startsWith('.') ? key.slice(1) : key;
}

/**
 * The stamp for events read now. `hostKey` overrides `log_schema.host_key` (the sources' `host_key` option);
 * `fields` are the source's own (e.g. `file`), left out when their key is `""`.
 */
export function sourceStamp(
  env: Pick<ComponentEnv, 'globals' | 'hostname'>,
  sourceType: string,
  options: { hostKey?: string; fields?: ReadonlyArray<readonly [key: string, value: unknown]> } = {},
): Record<string, unknown> {
  const schema = env.globals.log_schema;
  const stamp: Record<string, unknown> = {};
  const add = (key: string, value: unknown) => {
    const name = fieldName(key);
    if (name !== '') stamp[name] = value;
  };
  add(schema.source_type_key, sourceType);
  add(schema.timestamp_key, Timestamp.fromDate(new Date()));
  add(options.hostKey ?? schema.host_key, env.hostname);
  for (const [key, value] of options.fields ?? []) add(key, value);
  return stamp;
}
