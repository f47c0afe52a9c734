// parse_cloud_alb_log (parse_aws_alb_log)(value, strict_mode): an Application Load Balancer access log entry,
// field by field as VRL's nom parser reads it. `-` is null; times stay strings; with `strict_mode` false,
// fields after the known ones are ignored.

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { rustDebugString } from '../text.js';
import { booleanArg, stringArg } from './support/args.js';
import { floatValue } from './support/float.js';

const HOST = /^[0-9a-f.:-]+/;
const TIME = /^[0-9.-]+/;
const STATUS = /^[0-9-]+/;

type Reader = (cursor: Cursor) => RemapValue;

/** The fields in order, each with how it is read. */
const FIELDS: ReadonlyArray<readonly [string, Reader]> = [
  ['type', (c) => c.token(/^[a-z0-9]+/, false)],
  ['timestamp', (c) => c.token(/^[0-9.\-:TZ]+/)],
  ['elb', (c) => c.anything()],
  ['client_host', (c) => c.token(HOST)],
  ['target_host', (c) => c.token(HOST)],
  ['request_processing_time', (c) => c.number(TIME, false)],
  ['target_processing_time', (c) => c.number(TIME, false)],
  ['response_processing_time', (c) => c.number(TIME, false)],
  ['elb_status_code', (c) => c.token(STATUS)],
  ['target_status_code', (c) => c.token(STATUS)],
  ['received_bytes', (c) => c.number(STATUS, true)],
  ['sent_bytes', (c) => c.number(STATUS, true)],
  ['request', (c) => c.quoted()],
  ['user_agent', (c) => c.quoted()],
  ['ssl_cipher', (c) => c.anything()],
  ['ssl_protocol', (c) => c.anything()],
  ['target_group_arn', (c) => c.anything()],
  ['trace_id', (c) => c.quoted()],
  ['domain_name', (c) => c.quoted()],
  ['chosen_cert_arn', (c) => c.quoted()],
  ['matched_rule_priority', (c) => c.anything()],
  ['request_creation_time', (c) => c.anything()],
  ['actions_executed', (c) => c.quoted()],
  ['redirect_url', (c) => c.quoted()],
  ['error_reason', (c) => c.quoted()],
  ['target_port_list', (c) => c.list(HOST)],
  ['target_status_code_list', (c) => c.list(/^[0-9]+/)],
  ['classification', (c) => c.quoted()],
  ['classification_reason', (c) => c.quoted()],
  ['traceability_id', (c) => c.optional()],
];

class ParseError extends Error {}

class Cursor {
  constructor(public rest: string) {}

  private fail(kind: string): never {
    throw new ParseError(`Parsing Error: Error { input: ${rustDebugString(this.rest)}, code: ${kind} }`);
  }

  private space(): void {
    if (!this.rest.startsWith(' ')) this.fail('Char');
    this.rest = this.rest.slice(1);
  }

  /** A run of characters matching `pattern`, after a space unless it is the first field. */
  token(pattern: RegExp, leadingSpace = true): string {
    if (leadingSpace) this.space();
    const m = pattern.exec(this.rest);
    if (!m) this.fail('TakeWhile1');
    this.rest = this.rest.slice(m[0].length);
    return m[0];
  }

  number(pattern: RegExp, integer: boolean): RemapValue {
    const text = this.token(pattern);
    if (text === '-') return text;
    if (integer ? !/^[+-]?\d+$/.test(text) : !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) this.fail('MapRes');
    return integer ? BigInt(text) : floatValue(Number(text));
  }

  anything(): string {
    return this.token(/^[^ ]+/);
  }

  /** ` "…"`: a quoted text where `\"` does not end it. */
  quoted(): string {
    if (!this.rest.startsWith(' "')) this.fail('Tag');
    const m = /^ "((?:[^"\\]|\\.)*)"/s.exec(this.rest);
    if (!m) this.fail('Char');
    this.rest = this.rest.slice(m[0].length);
    return m[1]!;
  }

  /** ` "-"` (empty) or ` "a b c"` with items matching `item`. */
  list(item: RegExp): RemapValue[] {
    const text = this.quoted();
    if (text === '-') return [];
    const items = text.split(' ');
    if (!items.every((part) => item.exec(part)?.[0] === part)) this.fail('TakeWhile1');
    return items;
  }

  /** A last field that older logs do not have, quoted or not. */
  optional(): RemapValue {
    if (this.rest === '') return null;
    return this.rest.startsWith(' "') ? this.quoted() : this.anything();
  }
}

export const parse_cloud_alb_log: JsFunction = ([value, strictMode]) => {
  const cursor = new Cursor(stringArg(value!));
  const strict = booleanArg(strictMode!, true);
  const log: Record<string, RemapValue> = Object.create(null);
  for (const [name, read] of FIELDS) {
    let field: RemapValue;
    try {
      field = read(cursor);
    } catch (error) {
      if (error instanceof ParseError) throw new Error(`failed to get field \`${name}\`: ${error.message}`);
      throw error;
    }
    if (name === 'request') splitRequest(field as string, log);
    else log[name] = field === '-' ? null : field;
  }
  if (strict && cursor.rest !== '') throw new Error(`Log should be fully consumed: ${rustDebugString(cursor.rest)}`);
  return log;
};

/** `METHOD URL PROTOCOL`: the method up to the first space, the protocol after the last. */
function splitRequest(request: string, log: Record<string, RemapValue>): void {
  const first = request.indexOf(' ');
  const method = first < 0 ? request : request.slice(0, first);
  log.request_method = method === '-' ? null : method;
  if (first < 0) throw new Error('failed to get field `request_url`');
  const rest = request.slice(first + 1);
  const last = rest.lastIndexOf(' ');
  const protocol = rest.slice(last + 1);
  log.request_protocol = protocol === '-' ? null : protocol;
  if (last < 0) throw new Error('failed to get field `request_url`');
  log.request_url = rest.slice(0, last);
}
