// JS-backed remap functions by name (definitions with `backing: { kind: 'js' }` in compiler/functions/). A compiled
// module lists the ones it calls in its `svc` custom section; the runtime binds them by these names.

import type { JsFunctionTable } from '../imports.js';
import { format_timestamp } from './format_timestamp.js';
import { get_env_var } from './get_env_var.js';
import { parse_regex } from './parse_regex.js';
import { parse_timestamp } from './parse_timestamp.js';
import { community_id } from './community_id.js';
import { crc } from './crc.js';
import { decode_charset } from './decode_charset.js';
import { decode_gzip } from './decode_gzip.js';
import { decode_lz4 } from './decode_lz4.js';
import { decode_mime_q } from './decode_mime_q.js';
import { decode_punycode } from './decode_punycode.js';
import { decode_snappy } from './decode_snappy.js';
import { decode_zlib } from './decode_zlib.js';
import { decode_zstd } from './decode_zstd.js';
import { decrypt } from './decrypt.js';
import { decrypt_ip } from './decrypt_ip.js';
import { encode_charset } from './encode_charset.js';
import { encode_gzip } from './encode_gzip.js';
import { encode_lz4 } from './encode_lz4.js';
import { encode_punycode } from './encode_punycode.js';
import { encode_snappy } from './encode_snappy.js';
import { encode_zlib } from './encode_zlib.js';
import { encode_zstd } from './encode_zstd.js';
import { encrypt } from './encrypt.js';
import { encrypt_ip } from './encrypt_ip.js';
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
  community_id,
  crc,
  decode_charset,
  decode_gzip,
  decode_lz4,
  decode_mime_q,
  decode_punycode,
  decode_snappy,
  decode_zlib,
  decode_zstd,
  decrypt,
  decrypt_ip,
  encode_charset,
  encode_gzip,
  encode_lz4,
  encode_punycode,
  encode_snappy,
  encode_zlib,
  encode_zstd,
  encrypt,
  encrypt_ip,
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
