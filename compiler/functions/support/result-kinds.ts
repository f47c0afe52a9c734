// Result kinds shared by several function definitions (mostly log parsers).

import {
  BOOLEAN,
  BYTES,
  FLOAT,
  INTEGER,
  NULL,
  TIMESTAMP,
  arrayOf,
  exactObject,
  objectOf,
  union,
  type Kind,
} from '../../types/kind.js';

export const STRING_OR_NULL = union(BYTES, NULL);
export const INTEGER_OR_NULL = union(INTEGER, NULL);
export const TIMESTAMP_OR_NULL = union(TIMESTAMP, NULL);

/** Fields of the Common Log Format, also the base of the web server access formats. */
export const COMMON_LOG_FIELDS: Readonly<Record<string, Kind>> = {
  host: STRING_OR_NULL,
  identity: STRING_OR_NULL,
  message: STRING_OR_NULL,
  method: STRING_OR_NULL,
  path: STRING_OR_NULL,
  protocol: STRING_OR_NULL,
  size: INTEGER_OR_NULL,
  status: INTEGER_OR_NULL,
  timestamp: TIMESTAMP_OR_NULL,
  user: STRING_OR_NULL,
};

export const COMMON_LOG: Kind = exactObject(COMMON_LOG_FIELDS);

/**
 * A parsed syslog message. Structured data elements come out as extra fields holding objects of
 * strings, keyed by their id.
 */
export const SYSLOG: Kind = objectOf(objectOf(BYTES), {
  appname: STRING_OR_NULL,
  facility: STRING_OR_NULL,
  hostname: STRING_OR_NULL,
  message: BYTES,
  msgid: STRING_OR_NULL,
  procid: union(BYTES, INTEGER, NULL),
  severity: STRING_OR_NULL,
  timestamp: TIMESTAMP_OR_NULL,
  version: INTEGER_OR_NULL,
});

/** A line of the glog format, which klog shares. */
export const GLOG: Kind = exactObject({
  file: BYTES,
  id: INTEGER,
  level: BYTES,
  line: INTEGER,
  message: BYTES,
  timestamp: TIMESTAMP,
});

const KEY_VALUE = union(BYTES, BOOLEAN);

/** Key-value text: strings, `true` for a standalone key, arrays for a repeated key. */
export const KEY_VALUE_OBJECT: Kind = objectOf(union(KEY_VALUE, arrayOf(KEY_VALUE)));

/** One internal metric of the running service. */
export const SVC_METRIC: Kind = exactObject({
  kind: BYTES,
  name: BYTES,
  tags: objectOf(BYTES),
  type: BYTES,
  /** Null for a histogram. */
  value: union(FLOAT, NULL),
});
