// VRL's access and error log regexes (`log_util.rs`), without Rust's extended syntax. Rust's
// `[[\\"][^"]]` is the union of `\`, `"` and "not `"`": any character, `(?s:.)` here.

import { RustRegex } from '../../../abi/regex.js';

/** Apache's common format, also `parse_common_log`. */
const COMMON_PREFIX =
  String.raw`^\s*(?:-|(?<host>.*?))\s+(?:-|(?<identity>.*?))\s+(?:-|(?<user>.*?))\s+` +
  String.raw`(?:-|\[(?:-|(?<timestamp>[^\[]*))\])\s+` +
  String.raw`(?:-|"(?:-|(?:\s*(?<message>(?<method>\w+)\s+(?<path>(?s:.)*?)\s+(?<protocol>(?s:.)*?)\s*|(?s:.)*?))\s*)")\s+` +
  String.raw`(?:-|(?<status>\d+))\s+(?:-|(?<size>\d+))`;

export const COMMON_LOG = new RustRegex(`${COMMON_PREFIX}\\s*$`);

export const APACHE_COMBINED_LOG = new RustRegex(
  COMMON_PREFIX + String.raw`\s+(?:-|"(?:-|(?:\s*(?<referrer>(?s:.)*?)))")\s+(?:-|"(?:-|(?:\s*(?<agent>(?s:.)*?)))")`,
);

export const APACHE_ERROR_LOG = new RustRegex(
  String.raw`^\s*(?:-|\[(?:-|(?<timestamp>[^\[]*))\])\s+` +
    String.raw`(?:-|\[(?:-|(?<module>[^:]*):(?<severity>[^\[]*))\])\s+` +
    String.raw`(?:-|\[\s*pid\s*(?:-|(?<pid>[^:]*)(?::\s*tid\s*(?<thread>[^\[]*))?)\])\s+` +
    String.raw`(?:-|\[\s*client\s*(?:-|(?<client>.*:?):(?<port>[^\[]*))\])\s+` +
    String.raw`(?:-|(?<message>.*))\s*$`,
);

export const NGINX_COMBINED_LOG = new RustRegex(
  String.raw`^\s*(?:-|(?<client>\S+))\s+-\s+(?:-|(?<user>\S+))\s+\[(?<timestamp>.+)\]\s+"(?<request>[^"]*)"\s+` +
    String.raw`(?<status>\d+)\s+(?<size>\d+)\s+"(?:-|(?<referer>[^"]+))"\s+"(?:-|(?<agent>[^"]+))"` +
    String.raw`(?:\s+"(?:-|(?<compression>[^"]+))")?\s*$`,
);

export const NGINX_MAIN_LOG = new RustRegex(
  String.raw`^\s*(?:-|(?<remote_addr>\S+))\s+-\s+(?:-|(?<remote_user>\S+))\s+\[(?<timestamp>[^\]]+)\]\s+` +
    String.raw`"(?<request>[^"]*)"\s+(?<status>\d+)\s+(?<body_bytes_size>\d+)\s+` +
    String.raw`"(?:-|(?<http_referer>[^"]+))"\s+"(?:-|(?<http_user_agent>[^"]+))"\s+` +
    String.raw`"(?:-|(?<http_x_forwarded_for>[^"]+))"\s*$`,
);

export const NGINX_INGRESS_UPSTREAMINFO_LOG = new RustRegex(
  String.raw`^\s*(?:-|(?<remote_addr>\S+))\s+-\s+(?:-|(?<remote_user>\S+))\s+\[(?<timestamp>[^\]]+)\]\s+` +
    String.raw`"(?<request>[^"]*)"\s+(?<status>\d+)\s+(?<body_bytes_size>\d+)\s+` +
    String.raw`"(?:-|(?<http_referer>[^"]+))"\s+"(?:-|(?<http_user_agent>[^"]+))"\s+` +
    String.raw`(?<request_length>\d+)\s+(?<request_time>\d+\.\d+)\s+\[(?<proxy_upstream_name>[^\]]+)\]\s+` +
    String.raw`\[(?<proxy_alternative_upstream_name>[^\]]+)?\]\s+(?<upstream_addr>\S+)\s+` +
    String.raw`(?<upstream_response_length>\d+)\s+(?<upstream_response_time>\d+\.\d+)\s+(?<upstream_status>\d+)\s+` +
    String.raw`(?<req_id>\S+)\s*$`,
);

export const NGINX_ERROR_LOG = new RustRegex(
  String.raw`^\s*(?<timestamp>.+)\s+\[(?<severity>\w+)\]\s+(?<pid>\d+)#(?<tid>\d+):(?:\s+\*(?<cid>\d+))?` +
    String.raw`\s+(?<message>[^,]*)` +
    String.raw`(?:,\s+excess:\s+(?<excess>[^\s]+)\sby\szone\s"(?<zone>[^,]+)")?` +
    String.raw`(?:,\s+client:\s+(?<client>[^,]+))?(?:,\s+server:\s+(?<server>[^,]*))?` +
    String.raw`(?:,\s+request:\s+"(?<request>[^"]*)")?(?:,\s+upstream:\s+"(?<upstream>[^"]*)")?` +
    String.raw`(?:,\s+host:\s+"(?<host>[^"]*)")?(?:,\s+refer?rer:\s+"(?<referer>[^"]*)")?\s*$`,
);
