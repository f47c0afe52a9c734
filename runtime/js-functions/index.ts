// JS-backed remap functions by name (definitions with `backing: { kind: 'js' }` in compiler/functions/). A compiled
// module lists the ones it calls in its `svc` custom section; the runtime binds them by these names.

import type { JsFunctionTable } from '../imports.js';
import { format_timestamp } from './format_timestamp.js';
import { get_env_var } from './get_env_var.js';
import { parse_regex } from './parse_regex.js';
import { parse_timestamp } from './parse_timestamp.js';
import { crc } from './crc.js';
import { hmac } from './hmac.js';
import { md5 } from './md5.js';
import { seahash } from './seahash.js';
import { sha1 } from './sha1.js';
import { sha2 } from './sha2.js';
import { sha3 } from './sha3.js';
import { xxhash } from './xxhash.js';

export const JS_FUNCTIONS: JsFunctionTable = {
  format_timestamp,
  get_env_var,
  parse_regex,
  parse_timestamp,
  crc,
  hmac,
  md5,
  seahash,
  sha1,
  sha2,
  sha3,
  xxhash,
};

/** What the compiler is told this runtime provides. */
export const JS_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(JS_FUNCTIONS));
