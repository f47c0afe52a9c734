// The glog line layout, which klog shares with a year-less timestamp (VRL's parse_glog / parse_klog).

import { parseStrftime, TimestampParseError } from '../../../abi/strftime.js';
import { UTC } from '../../time-zones.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { RustRegex } from '../../../abi/regex.js';

const LEVELS: Readonly<Record<string, string>> = { I: 'info', W: 'warning', E: 'error', F: 'fatal' };

const BODY = String.raw`\s+(?<id>\d+)\s(?<file>.+):(?<line>\d+)\]\s?(?<message>.*)`;
export const GLOG_LINE = new RustRegex(
  String.raw`^\s*(?<level>\w)(?<timestamp>\d{8}\s\d{2}:\d{2}:\d{2}\.\d{6})${BODY}`,
);
export const KLOG_LINE = new RustRegex(
  String.raw`^\s*(?<level>\w)(?<timestamp>\d{4}\s\d{2}:\d{2}:\d{2}\.\d{6})${BODY}`,
);

/** Fields of a matched line; `year` prefixes klog's timestamp (glog's has its own). */
export function glogFields(groups: Record<string, string>, year = ''): Record<string, RemapValue> {
  const level = LEVELS[groups.level!];
  if (!level) throw new Error(`unrecognized log level "${groups.level}"`);
  const text = year + groups.timestamp!;
  let timestamp: Timestamp;
  try {
    timestamp = new Timestamp(parseStrftime(text, '%Y%m%d %H:%M:%S%.f').toInstantInZone(UTC));
  } catch (error) {
    if (!(error instanceof TimestampParseError)) throw error;
    throw new Error(`failed parsing timestamp ${text}: ${error.message}`);
  }
  return {
    level,
    timestamp,
    id: integer(groups.id!, 'id'),
    file: groups.file!,
    line: integer(groups.line!, 'line'),
    message: groups.message!,
  };
}

function integer(text: string, name: string): bigint {
  const value = BigInt(text);
  if (BigInt.asIntN(64, value) !== value) throw new Error(`failed parsing ${name}`);
  return value;
}
