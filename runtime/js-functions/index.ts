// JS-backed remap functions by name (definitions with `backing: { kind: 'js' }` in compiler/functions/). A compiled
// module lists the ones it calls in its `svc` custom section; the runtime binds them by these names.

import type { JsFunctionTable } from '../imports.js';
import { format_timestamp } from './format_timestamp.js';
import { get_env_var } from './get_env_var.js';
import { parse_regex } from './parse_regex.js';
import { parse_timestamp } from './parse_timestamp.js';
import { encode_proto } from './encode_proto.js';
import { match_ext_query } from './match_ext_query.js';
import { parse_proto } from './parse_proto.js';
import { parse_user_agent } from './parse_user_agent.js';
import { parse_grok } from './parse_grok.js';
import { parse_groks } from './parse_groks.js';
import { parse_cef } from './parse_cef.js';
import { parse_cloud_alb_log } from './parse_cloud_alb_log.js';
import { parse_cloud_log_subscription_message } from './parse_cloud_log_subscription_message.js';
import { parse_cloud_vpc_flow_log } from './parse_cloud_vpc_flow_log.js';
import { parse_common_log } from './parse_common_log.js';
import { parse_glog } from './parse_glog.js';
import { parse_klog } from './parse_klog.js';
import { parse_tsdb } from './parse_tsdb.js';
import { parse_websrv1_log } from './parse_websrv1_log.js';
import { parse_websrv2_log } from './parse_websrv2_log.js';
import { find } from './find.js';
import { match } from './match.js';
import { match_any } from './match_any.js';
import { match_array } from './match_array.js';
import { shannon_entropy } from './shannon_entropy.js';
import { sieve } from './sieve.js';
import { redact } from './redact.js';
import { get_timezone_name } from './get_timezone_name.js';
import { get_hostname } from './get_hostname.js';
import { http_request } from './http_request.js';
import { dns_lookup } from './dns_lookup.js';
import { reverse_dns } from './reverse_dns.js';
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
import { aggregate_svc_metrics } from './aggregate_svc_metrics.js';
import { find_enrichment_table_records } from './find_enrichment_table_records.js';
import { find_svc_metrics } from './find_svc_metrics.js';
import { get_enrichment_table_record } from './get_enrichment_table_record.js';
import { get_svc_metric } from './get_svc_metric.js';

export const JS_FUNCTIONS: JsFunctionTable = {
  format_timestamp,
  get_env_var,
  parse_regex,
  parse_timestamp,
  encode_proto,
  match_ext_query,
  parse_proto,
  parse_user_agent,
  parse_grok,
  parse_groks,
  parse_cef,
  parse_cloud_alb_log,
  parse_cloud_log_subscription_message,
  parse_cloud_vpc_flow_log,
  parse_common_log,
  parse_glog,
  parse_klog,
  parse_tsdb,
  parse_websrv1_log,
  parse_websrv2_log,
  find,
  match,
  match_any,
  match_array,
  shannon_entropy,
  sieve,
  redact,
  get_timezone_name,
  get_hostname,
  http_request,
  dns_lookup,
  reverse_dns,
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
  aggregate_svc_metrics,
  find_enrichment_table_records,
  find_svc_metrics,
  get_enrichment_table_record,
  get_svc_metric,
};

/** What the compiler is told this runtime provides. */
export const JS_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(JS_FUNCTIONS));
