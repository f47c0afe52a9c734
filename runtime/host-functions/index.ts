// Host-backed remap functions by name (definitions with `backing: host` in compiler/functions/). A compiled
// module lists the ones it calls in its `svc` custom section; the host binds them by these names.

import type { HostFunction } from '../host-imports.js';
import { format_timestamp } from './format_timestamp.js';
import { parse_regex } from './parse_regex.js';
import { parse_timestamp } from './parse_timestamp.js';

export const HOST_FUNCTIONS: Readonly<Record<string, HostFunction>> = {
  format_timestamp,
  parse_regex,
  parse_timestamp,
};
