// JS-backed remap functions by name (definitions with `backing: { kind: 'js' }` in compiler/functions/). A compiled
// module lists the ones it calls in its `svc` custom section; the runtime binds them by these names.

import type { JsFunctionTable } from '../imports.js';
import { format_timestamp } from './format_timestamp.js';
import { get_env_var } from './get_env_var.js';
import { parse_regex } from './parse_regex.js';
import { parse_timestamp } from './parse_timestamp.js';
import { parse_regex_all } from './parse_regex_all.js';
import { parse_query_string } from './parse_query_string.js';
import { parse_url } from './parse_url.js';
import { parse_tokens } from './parse_tokens.js';
import { parse_csv } from './parse_csv.js';
import { encode_csv } from './encode_csv.js';
import { parse_ruby_hash } from './parse_ruby_hash.js';
import { parse_cbor } from './parse_cbor.js';
import { parse_yaml } from './parse_yaml.js';
import { parse_xml } from './parse_xml.js';
import { validate_json_schema } from './validate_json_schema.js';
import { parse_etld } from './parse_etld.js';

export const JS_FUNCTIONS: JsFunctionTable = {
  format_timestamp,
  get_env_var,
  parse_regex,
  parse_timestamp,
  parse_regex_all,
  parse_query_string,
  parse_url,
  parse_tokens,
  parse_csv,
  encode_csv,
  parse_ruby_hash,
  parse_cbor,
  parse_yaml,
  parse_xml,
  validate_json_schema,
  parse_etld,
};

/** What the compiler is told this runtime provides. */
export const JS_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(JS_FUNCTIONS));
