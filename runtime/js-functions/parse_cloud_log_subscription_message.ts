// parse_cloud_log_subscription_message (parse_aws_cloudwatch_log_subscription_message)(value): the JSON a
// CloudWatch Logs subscription delivers, with snake_case keys and event times as timestamps.

import type { JsFunction } from '../imports.js';
import { Timestamp, type RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';

const MESSAGE_TYPES: ReadonlySet<string> = new Set(['DATA_MESSAGE', 'CONTROL_MESSAGE']);

export const parse_cloud_log_subscription_message: JsFunction = ([value]) => {
  let message: unknown;
  try {
    message = JSON.parse(stringArg(value!));
  } catch (error) {
    throw new Error(`unable to parse: ${(error as Error).message}`);
  }
  const root = object(message, 'struct AwsCloudWatchLogsSubscriptionMessage');
  const messageType = string(root, 'messageType');
  if (!MESSAGE_TYPES.has(messageType)) {
    throw new Error(
      `unable to parse: unknown variant \`${messageType}\`, expected \`DATA_MESSAGE\` or \`CONTROL_MESSAGE\``,
    );
  }
  const filters = field(root, 'subscriptionFilters');
  const events = field(root, 'logEvents');
  if (!Array.isArray(filters)) throw invalidType('subscriptionFilters', 'a sequence');
  if (!Array.isArray(events)) throw invalidType('logEvents', 'a sequence');
  return {
    owner: string(root, 'owner'),
    message_type: messageType,
    log_group: string(root, 'logGroup'),
    log_stream: string(root, 'logStream'),
    subscription_filters: filters.map((filter) => {
      if (typeof filter !== 'string') throw invalidType('subscriptionFilters', 'a string');
      return filter;
    }),
    log_events: events.map((event): RemapValue => {
      const record = object(event, 'struct AwsCloudWatchLogEvent');
      const millis = field(record, 'timestamp');
      if (typeof millis !== 'number' || !Number.isInteger(millis)) throw invalidType('timestamp', 'i64');
      return {
        id: string(record, 'id'),
        timestamp: new Timestamp(BigInt(millis) * 1_000_000n),
        message: string(record, 'message'),
      };
    }),
  };
};

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`unable to parse: invalid type: expected ${what}`);
  }
  return value as Record<string, unknown>;
}

function field(record: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(record, name)) throw new Error(`unable to parse: missing field \`${name}\``);
  return record[name];
}

function string(record: Record<string, unknown>, name: string): string {
  const value = field(record, name);
  if (typeof value !== 'string') throw invalidType(name, 'a string');
  return value;
}

function invalidType(name: string, expected: string): Error {
  return new Error(`unable to parse: invalid type for \`${name}\`: expected ${expected}`);
}
