import { defineFunction } from './define.js';
import { K, BYTES, INTEGER, FLOAT, NULL, arrayOf, exactObject, union } from '../types/kind.js';
import { STRING_OR_NULL } from './support/result-kinds.js';

const STRING_LIST = union(arrayOf(BYTES), NULL);

export default defineFunction({
  name: 'parse_cloud_alb_log',
  aliases: ['parse_aws_alb_log'],
  category: 'Parse',
  description:
    "Parses an access log entry of the cloud provider's application load balancer. With `strict_mode` off, trailing fields after the known ones are tolerated and the first is kept as `traceability_id`.",
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'strict_mode', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: exactObject({
    actions_executed: STRING_OR_NULL,
    chosen_cert_arn: STRING_OR_NULL,
    classification: STRING_OR_NULL,
    classification_reason: STRING_OR_NULL,
    client_host: BYTES,
    domain_name: STRING_OR_NULL,
    elb: BYTES,
    elb_status_code: BYTES,
    error_reason: STRING_OR_NULL,
    matched_rule_priority: STRING_OR_NULL,
    received_bytes: INTEGER,
    redirect_url: STRING_OR_NULL,
    request_creation_time: BYTES,
    request_method: BYTES,
    request_processing_time: FLOAT,
    request_protocol: BYTES,
    request_url: BYTES,
    response_processing_time: FLOAT,
    sent_bytes: INTEGER,
    ssl_cipher: STRING_OR_NULL,
    ssl_protocol: STRING_OR_NULL,
    target_group_arn: BYTES,
    target_host: STRING_OR_NULL,
    target_port_list: STRING_LIST,
    target_processing_time: FLOAT,
    target_status_code: STRING_OR_NULL,
    target_status_code_list: STRING_LIST,
    timestamp: BYTES,
    trace_id: BYTES,
    traceability_id: STRING_OR_NULL,
    type: BYTES,
    user_agent: BYTES,
  }),
  examples: [
    {
      title: 'Parse AWS ALB log',
      source: `parse_aws_alb_log!(
    "http 2018-11-30T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 - 0.000 0.001 0.000 200 200 34 366 \\"GET http://www.example.com:80/ HTTP/1.1\\" \\"curl/7.46.0\\" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \\"Root=1-58337364-23a8c76965a2ef7629b185e3\\" \\"-\\" \\"-\\" 0 2018-11-30T22:22:48.364000Z \\"forward\\" \\"-\\" \\"-\\" \\"-\\" \\"-\\" \\"-\\" \\"-\\""
)
`,
      returns:
        '{ "actions_executed": "forward", "chosen_cert_arn": null, "classification": null, "classification_reason": null, "client_host": "192.168.131.39:2817", "domain_name": null, "elb": "app/my-loadbalancer/50dc6c495c0c9188", "elb_status_code": "200", "error_reason": null, "matched_rule_priority": "0", "received_bytes": 34, "redirect_url": null, "request_creation_time": "2018-11-30T22:22:48.364000Z", "request_method": "GET", "request_processing_time": 0.0, "request_protocol": "HTTP/1.1", "request_url": "http://www.example.com:80/", "response_processing_time": 0.0, "sent_bytes": 366, "ssl_cipher": null, "ssl_protocol": null, "target_group_arn": "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067", "target_host": null, "target_port_list": [], "target_processing_time": 0.001, "target_status_code": "200", "target_status_code_list": [], "timestamp": "2018-11-30T22:23:00.186641Z", "trace_id": "Root=1-58337364-23a8c76965a2ef7629b185e3", "traceability_id": null, "type": "http", "user_agent": "curl/7.46.0" }',
    },
    {
      title: 'Parse AWS ALB log with trailing fields (non-strict mode)',
      source: `parse_aws_alb_log!(
    "http 2018-11-30T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 - 0.000 0.001 0.000 200 200 34 366 \\"GET http://www.example.com:80/ HTTP/1.1\\" \\"curl/7.46.0\\" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \\"Root=1-58337364-23a8c76965a2ef7629b185e3\\" \\"-\\" \\"-\\" 0 2018-11-30T22:22:48.364000Z \\"forward\\" \\"-\\" \\"-\\" \\"-\\" \\"-\\" \\"-\\" \\"-\\" TID_12345 \\"-\\" \\"-\\" \\"-\\"",
    strict_mode: false
)
`,
      returns:
        '{ "actions_executed": "forward", "chosen_cert_arn": null, "classification": null, "classification_reason": null, "client_host": "192.168.131.39:2817", "domain_name": null, "elb": "app/my-loadbalancer/50dc6c495c0c9188", "elb_status_code": "200", "error_reason": null, "matched_rule_priority": "0", "received_bytes": 34, "redirect_url": null, "request_creation_time": "2018-11-30T22:22:48.364000Z", "request_method": "GET", "request_processing_time": 0.0, "request_protocol": "HTTP/1.1", "request_url": "http://www.example.com:80/", "response_processing_time": 0.0, "sent_bytes": 366, "ssl_cipher": null, "ssl_protocol": null, "target_group_arn": "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067", "target_host": null, "target_port_list": [], "target_processing_time": 0.001, "target_status_code": "200", "target_status_code_list": [], "timestamp": "2018-11-30T22:23:00.186641Z", "trace_id": "Root=1-58337364-23a8c76965a2ef7629b185e3", "traceability_id": "TID_12345", "type": "http", "user_agent": "curl/7.46.0" }',
    },
  ],
});
