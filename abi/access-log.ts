// The access and error log formats of `parse_common_log`, `parse_apache_log` and `parse_nginx_log` (VRL's
// `log_util.rs`): each format's pattern, how its fields are typed and its default timestamp format. The JS
// functions (runtime/js-functions/) run every call; the compiler has the stdlib run the calls whose format
// it knows first (compiler/codegen/builtins.ts), falling back to the JS function. Patterns without Rust's
// extended syntax: Rust's `[[\\"][^"]]` is the union of `\`, `"` and "not `"`": any character, `(?s:.)` here.

/** Apache's common format, also `parse_common_log`. */
const COMMON_PREFIX =
  String.raw`^\s*(?:-|(?<host>.*?))\s+(?:-|(?<identity>.*?))\s+(?:-|(?<user>.*?))\s+` +
  String.raw`(?:-|\[(?:-|(?<timestamp>[^\[]*))\])\s+` +
  String.raw`(?:-|"(?:-|(?:\s*(?<message>(?<method>\w+)\s+(?<path>(?s:.)*?)\s+(?<protocol>(?s:.)*?)\s*|(?s:.)*?))\s*)")\s+` +
  String.raw`(?:-|(?<status>\d+))\s+(?:-|(?<size>\d+))`;

const COMMON_LOG = `${COMMON_PREFIX}\\s*$`;

const APACHE_COMBINED_LOG =
  COMMON_PREFIX + String.raw`\s+(?:-|"(?:-|(?:\s*(?<referrer>(?s:.)*?)))")\s+(?:-|"(?:-|(?:\s*(?<agent>(?s:.)*?)))")`;

const APACHE_ERROR_LOG =
  String.raw`^\s*(?:-|\[(?:-|(?<timestamp>[^\[]*))\])\s+` +
  String.raw`(?:-|\[(?:-|(?<module>[^:]*):(?<severity>[^\[]*))\])\s+` +
  String.raw`(?:-|\[\s*pid\s*(?:-|(?<pid>[^:]*)(?::\s*tid\s*(?<thread>[^\[]*))?)\])\s+` +
  String.raw`(?:-|\[\s*client\s*(?:-|(?<client>.*:?):(?<port>[^\[]*))\])\s+` +
  String.raw`(?:-|(?<message>.*))\s*$`;

const NGINX_COMBINED_LOG =
  String.raw`^\s*(?:-|(?<client>\S+))\s+-\s+(?:-|(?<user>\S+))\s+\[(?<timestamp>.+)\]\s+"(?<request>[^"]*)"\s+` +
  String.raw`(?<status>\d+)\s+(?<size>\d+)\s+"(?:-|(?<referer>[^"]+))"\s+"(?:-|(?<agent>[^"]+))"` +
  String.raw`(?:\s+"(?:-|(?<compression>[^"]+))")?\s*$`;

const NGINX_MAIN_LOG =
  String.raw`^\s*(?:-|(?<remote_addr>\S+))\s+-\s+(?:-|(?<remote_user>\S+))\s+\[(?<timestamp>[^\]]+)\]\s+` +
  String.raw`"(?<request>[^"]*)"\s+(?<status>\d+)\s+(?<body_bytes_size>\d+)\s+` +
  String.raw`"(?:-|(?<http_referer>[^"]+))"\s+"(?:-|(?<http_user_agent>[^"]+))"\s+` +
  String.raw`"(?:-|(?<http_x_forwarded_for>[^"]+))"\s*$`;

const NGINX_INGRESS_UPSTREAMINFO_LOG =
  String.raw`^\s*(?:-|(?<remote_addr>\S+))\s+-\s+(?:-|(?<remote_user>\S+))\s+\[(?<timestamp>[^\]]+)\]\s+` +
  String.raw`"(?<request>[^"]*)"\s+(?<status>\d+)\s+(?<body_bytes_size>\d+)\s+` +
  String.raw`"(?:-|(?<http_referer>[^"]+))"\s+"(?:-|(?<http_user_agent>[^"]+))"\s+` +
  String.raw`(?<request_length>\d+)\s+(?<request_time>\d+\.\d+)\s+\[(?<proxy_upstream_name>[^\]]+)\]\s+` +
  String.raw`\[(?<proxy_alternative_upstream_name>[^\]]+)?\]\s+(?<upstream_addr>\S+)\s+` +
  String.raw`(?<upstream_response_length>\d+)\s+(?<upstream_response_time>\d+\.\d+)\s+(?<upstream_status>\d+)\s+` +
  String.raw`(?<req_id>\S+)\s*$`;

const NGINX_ERROR_LOG =
  String.raw`^\s*(?<timestamp>.+)\s+\[(?<severity>\w+)\]\s+(?<pid>\d+)#(?<tid>\d+):(?:\s+\*(?<cid>\d+))?` +
  String.raw`\s+(?<message>[^,]*)` +
  String.raw`(?:,\s+excess:\s+(?<excess>[^\s]+)\sby\szone\s"(?<zone>[^,]+)")?` +
  String.raw`(?:,\s+client:\s+(?<client>[^,]+))?(?:,\s+server:\s+(?<server>[^,]*))?` +
  String.raw`(?:,\s+request:\s+"(?<request>[^"]*)")?(?:,\s+upstream:\s+"(?<upstream>[^"]*)")?` +
  String.raw`(?:,\s+host:\s+"(?<host>[^"]*)")?(?:,\s+refer?rer:\s+"(?<referer>[^"]*)")?\s*$`;

export type FieldType = 'integer' | 'float' | 'timestamp';

export interface LogFormat {
  /** The format's name in the error of a line it does not match (`failed parsing common log line`). */
  name: string;
  pattern: string;
  /** How each captured field is typed; fields not listed stay strings. */
  types: Readonly<Record<string, FieldType>>;
  /** The `timestamp_format` when the call gives none. */
  timestampFormat: string;
}

const ACCESS_TIMESTAMP_FORMAT = '%d/%b/%Y:%T %z';
const COMMON_TYPES = { timestamp: 'timestamp', status: 'integer', size: 'integer' } as const;
const NGINX_TYPES = {
  timestamp: 'timestamp',
  status: 'integer',
  size: 'integer',
  body_bytes_size: 'integer',
  request_length: 'integer',
  upstream_response_length: 'integer',
  upstream_status: 'integer',
  pid: 'integer',
  tid: 'integer',
  cid: 'integer',
  request_time: 'float',
  upstream_response_time: 'float',
  excess: 'float',
} as const;

const nginx = (name: string, pattern: string, timestampFormat = ACCESS_TIMESTAMP_FORMAT): LogFormat => ({
  name,
  pattern,
  types: NGINX_TYPES,
  timestampFormat,
});

/** `parse_common_log`'s format. */
export const COMMON_LOG_FORMAT: LogFormat = {
  name: 'common',
  pattern: COMMON_LOG,
  types: COMMON_TYPES,
  timestampFormat: ACCESS_TIMESTAMP_FORMAT,
};

/** The formats of `parse_apache_log` (`parse_websrv1_log`), by its `format` argument. */
export const APACHE_LOG_FORMATS: Readonly<Record<string, LogFormat>> = {
  common: COMMON_LOG_FORMAT,
  combined: { ...COMMON_LOG_FORMAT, name: 'combined', pattern: APACHE_COMBINED_LOG },
  error: {
    name: 'error',
    pattern: APACHE_ERROR_LOG,
    types: { timestamp: 'timestamp', pid: 'integer', port: 'integer' },
    timestampFormat: ACCESS_TIMESTAMP_FORMAT,
  },
};

/** The formats of `parse_nginx_log` (`parse_websrv2_log`), by its `format` argument. */
export const NGINX_LOG_FORMATS: Readonly<Record<string, LogFormat>> = {
  combined: nginx('combined', NGINX_COMBINED_LOG),
  main: nginx('main', NGINX_MAIN_LOG),
  ingress_upstreaminfo: nginx('ingress_upstreaminfo', NGINX_INGRESS_UPSTREAMINFO_LOG),
  error: nginx('error', NGINX_ERROR_LOG, '%Y/%m/%d %H:%M:%S'),
};
