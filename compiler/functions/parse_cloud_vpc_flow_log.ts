// Custom formats may name fields beyond the well-known ones below; they hold strings, integers or nulls.

import { defineFunction } from './define.js';
import { K, BYTES, INTEGER, NULL, objectOf, union } from '../types/kind.js';
import { STRING_OR_NULL, INTEGER_OR_NULL } from './support/result-kinds.js';

const INTEGER_FIELDS = [
  'bytes',
  'dstport',
  'encryption_status',
  'end',
  'packets',
  'protocol',
  'srcport',
  'start',
  'tcp_flags',
  'traffic_path',
  'version',
];

const STRING_FIELDS = [
  'account_id',
  'action',
  'az_id',
  'dstaddr',
  'flow_direction',
  'instance_id',
  'interface_id',
  'log_status',
  'pkt_dst_aws_service',
  'pkt_dstaddr',
  'pkt_src_aws_service',
  'pkt_srcaddr',
  'region',
  'srcaddr',
  'sublocation_id',
  'sublocation_type',
  'subnet_id',
  'type',
  'vpc_id',
  'reject_reason',
  'resource_id',
  'interface_type',
];

const FLOW_LOG = objectOf(union(BYTES, INTEGER, NULL), {
  ...Object.fromEntries(INTEGER_FIELDS.map((field) => [field, INTEGER_OR_NULL])),
  ...Object.fromEntries(STRING_FIELDS.map((field) => [field, STRING_OR_NULL])),
});

export default defineFunction({
  name: 'parse_cloud_vpc_flow_log',
  aliases: ['parse_aws_vpc_flow_log'],
  category: 'Parse',
  description:
    "Parses a virtual network flow log record. `format` lists the record's field names separated by spaces (the version 2 layout by default); `-` becomes null and numeric fields become integers.",
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'format', kinds: K.Bytes, required: false },
  ],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: FLOW_LOG,
  examples: [
    {
      title: 'Parse AWS VPC Flow log (default format)',
      source:
        'parse_aws_vpc_flow_log!("2 123456789010 eni-1235b8ca123456789 - - - - - - - 1431280876 1431280934 - NODATA")',
      returns:
        '{ "version": 2, "account_id": "123456789010", "interface_id": "eni-1235b8ca123456789", "srcaddr": null, "dstaddr": null, "srcport": null, "dstport": null, "protocol": null, "packets": null, "bytes": null, "start": 1431280876, "end": 1431280934, "action": null, "log_status": "NODATA" }',
    },
    {
      title: 'Parse AWS VPC Flow log (custom format)',
      source: `parse_aws_vpc_flow_log!(
    "- eni-1235b8ca123456789 10.0.1.5 10.0.0.220 10.0.1.5 203.0.113.5",
    "instance_id interface_id srcaddr dstaddr pkt_srcaddr pkt_dstaddr"
)
`,
      returns:
        '{ "instance_id": null, "interface_id": "eni-1235b8ca123456789", "srcaddr": "10.0.1.5", "dstaddr": "10.0.0.220", "pkt_srcaddr": "10.0.1.5", "pkt_dstaddr": "203.0.113.5" }',
    },
    {
      title: 'Parse AWS VPC Flow log including v5 fields',
      source: `parse_aws_vpc_flow_log!(
    "5 52.95.128.179 10.0.0.71 80 34210 6 1616729292 1616729349 IPv4 14 15044 123456789012 vpc-abcdefab012345678 subnet-aaaaaaaa012345678 i-0c50d5961bcb2d47b eni-1235b8ca123456789 ap-southeast-2 apse2-az3 - - ACCEPT 19 52.95.128.179 10.0.0.71 S3 - - ingress OK",
    format: "version srcaddr dstaddr srcport dstport protocol start end type packets bytes account_id vpc_id subnet_id instance_id interface_id region az_id sublocation_type sublocation_id action tcp_flags pkt_srcaddr pkt_dstaddr pkt_src_aws_service pkt_dst_aws_service traffic_path flow_direction log_status"
)
`,
      returns:
        '{ "account_id": "123456789012", "action": "ACCEPT", "az_id": "apse2-az3", "bytes": 15044, "dstaddr": "10.0.0.71", "dstport": 34210, "end": 1616729349, "flow_direction": "ingress", "instance_id": "i-0c50d5961bcb2d47b", "interface_id": "eni-1235b8ca123456789", "log_status": "OK", "packets": 14, "pkt_dst_aws_service": null, "pkt_dstaddr": "10.0.0.71", "pkt_src_aws_service": "S3", "pkt_srcaddr": "52.95.128.179", "protocol": 6, "region": "ap-southeast-2", "srcaddr": "52.95.128.179", "srcport": 80, "start": 1616729292, "sublocation_id": null, "sublocation_type": null, "subnet_id": "subnet-aaaaaaaa012345678", "tcp_flags": 19, "traffic_path": null, "type": "IPv4", "version": 5, "vpc_id": "vpc-abcdefab012345678" }',
    },
    {
      title: 'Parse AWS VPC Flow log including v11 fields',
      source: `parse_aws_vpc_flow_log!(
    "11 10.0.0.71 52.95.128.179 34210 80 6 1616729292 1616729349 REJECT OK BPA nat-0c50d5961bcb2d47b 1 nat_gateway",
    format: "version srcaddr dstaddr srcport dstport protocol start end action log_status reject_reason resource_id encryption_status interface_type"
)
`,
      returns:
        '{ "action": "REJECT", "dstaddr": "52.95.128.179", "dstport": 80, "encryption_status": 1, "end": 1616729349, "interface_type": "nat_gateway", "log_status": "OK", "protocol": 6, "reject_reason": "BPA", "resource_id": "nat-0c50d5961bcb2d47b", "srcaddr": "10.0.0.71", "srcport": 34210, "start": 1616729292, "version": 11 }',
    },
  ],
});
