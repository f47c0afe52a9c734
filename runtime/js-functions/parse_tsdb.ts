// parse_tsdb (parse_influxdb)(value): InfluxDB line protocol, each field of each line a gauge metric named
// `<measurement>_<field>` with the line's tags and time (nanoseconds). Integers and booleans (1/0) become
// floats; string fields cannot be gauges. The grammar, and which input fails with which text, follow the
// `influxdb_line_protocol` crate VRL parses with (its texts checked against the reference engine, which
// uses the same crate: no changelog entry since 0.25 touches this function).

import type { JsFunction } from '../imports.js';
import { Timestamp, type RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';
import { floatValue } from './support/float.js';

const parsingError = (reason: string) => new Error(`InfluxDB line protocol parsing error: ${reason}`);
const BOUNDARY = ' \t\n';
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

/** What ends a name or tag value (besides whitespace), and the characters a backslash escapes in it. */
const MEASUREMENT = { ends: ',', escapes: ', \\' };
const TAG_KEY = { ends: '=', escapes: ',= \\' };
const TAG_VALUE = { ends: ',', escapes: ',= \\' };
const FIELD_KEY = { ends: '=', escapes: ',= \\' };

const INTEGER = /(-?\d+)i/y;
const UNSIGNED = /(\d+)u/y;
const FLOAT = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\[\s\S])*"/y;
const BOOLEAN = /true|True|TRUE|t|T|false|False|FALSE|f|F/y;
const SIGNED = /-?\d+/y;
const SPACES = / +/y;

type FieldValue = number | { string: true };

export const parse_tsdb: JsFunction = ([value]) => {
  const metrics: RemapValue[] = [];
  for (const raw of lines(stringArg(value!))) {
    const line = withoutCommentsAndBlanks(raw);
    if (line !== '') metrics.push(...toMetrics(new LineParser(line).parse()));
  }
  return metrics;
};

/** Lines end at newlines outside double quotes (a string field value may span lines). */
function* lines(text: string): Generator<string> {
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) {
      yield text.slice(start, i);
      start = i + 1;
    }
  }
  yield text.slice(start);
}

/** Leading whitespace and comment lines go; what is left is a line to parse, or nothing. */
function withoutCommentsAndBlanks(line: string): string {
  let at = 0;
  for (;;) {
    while (at < line.length && BOUNDARY.includes(line[at]!)) at++;
    if (line[at] !== '#') return line.slice(at);
    const newline = line.indexOf('\n', at);
    at = newline < 0 ? line.length : newline;
  }
}

interface ParsedLine {
  measurement: string;
  tags: Map<string, string>;
  fields: Array<[string, FieldValue]>;
  timestamp?: bigint;
}

/**
 * One line: `measurement[,tag=value...] field=value[,field=value...][ timestamp]`. Methods return undefined
 * where the crate's parser backtracks, and throw where it fails for good.
 */
class LineParser {
  private at = 0;

  constructor(private readonly line: string) {}

  parse(): ParsedLine {
    const measurement = this.escaped(MEASUREMENT);
    if (measurement === undefined) throw parsingError('Invalid measurement was provided');
    const tags = new Map<string, string>();
    if (this.accept(',')) {
      // The first tag must parse; after a later comma a tag that does not leaves the comma unread.
      let tag = this.tag();
      if (!tag) throw parsingError('Tag Set Malformed');
      for (; tag; tag = this.separated(() => this.tag(), false)) tags.set(tag[0], tag[1]);
    }
    if (!this.match(SPACES)) throw parsingError('A generic parsing error occurred: TakeWhile1');
    const fields: ParsedLine['fields'] = [];
    let field = this.field();
    if (!field) throw parsingError('No fields were provided');
    // Unlike the tag set's, the field set's trailing comma is consumed even when no field follows it.
    for (; field; field = this.separated(() => this.field(), true)) fields.push(field);
    const timestamp = this.timestamp();
    if (this.at < this.line.length) {
      throw parsingError(`Could not parse entire line. Found trailing content: '${this.line.slice(this.at)}'`);
    }
    return { measurement, tags, fields, ...(timestamp === undefined ? {} : { timestamp }) };
  }

  private accept(c: string): boolean {
    if (this.line[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.at;
    const m = re.exec(this.line);
    if (m) this.at = re.lastIndex;
    return m;
  }

  /** The next element after a comma, or undefined (and the position before or after the comma). */
  private separated<T>(element: () => T | undefined, keepComma: boolean): T | undefined {
    const start = this.at;
    if (!this.accept(',')) return undefined;
    const afterComma = this.at;
    const value = element();
    if (value === undefined) this.at = keepComma ? afterComma : start;
    return value;
  }

  /** A name or tag value: at least one character, backslash escapes resolved; a backslash elsewhere is itself. */
  private escaped(kind: { ends: string; escapes: string }): string | undefined {
    let text = '';
    let at = this.at;
    for (; at < this.line.length; at++) {
      const c = this.line[at]!;
      if (BOUNDARY.includes(c) || kind.ends.includes(c)) break;
      if (c === '\\' && at + 1 < this.line.length && kind.escapes.includes(this.line[at + 1]!)) text += this.line[++at];
      else text += c;
    }
    if (at === this.at) return undefined;
    this.at = at;
    if (text.endsWith('\\'))
      throw parsingError('Measurements, tag keys and values, and field keys may not end with a backslash');
    return text;
  }

  private tag(): [string, string] | undefined {
    const start = this.at;
    const key = this.escaped(TAG_KEY);
    const value = key !== undefined && this.accept('=') ? this.escaped(TAG_VALUE) : undefined;
    if (value === undefined) this.at = start;
    return value === undefined ? undefined : [key!, value];
  }

  private field(): [string, FieldValue] | undefined {
    const start = this.at;
    const key = this.escaped(FIELD_KEY);
    const value = key !== undefined && this.accept('=') ? this.fieldValue() : undefined;
    if (value === undefined) this.at = start;
    return value === undefined ? undefined : [key!, value];
  }

  private fieldValue(): FieldValue | undefined {
    let m;
    if ((m = this.match(INTEGER))) return Number(this.integer(m[1]!, I64_MIN, I64_MAX, 'integer'));
    if ((m = this.match(UNSIGNED))) return Number(this.integer(m[1]!, 0n, U64_MAX, 'unsigned integer'));
    if ((m = this.match(FLOAT))) return Number(m[0]);
    if (this.match(STRING)) return { string: true };
    if ((m = this.match(BOOLEAN))) return /^[tT]/.test(m[0]) ? 1 : 0;
    return undefined;
  }

  /** An integer of the crate's Rust type: out of its range the line fails with the crate's text. */
  private integer(text: string, min: bigint, max: bigint, what: string): bigint {
    const n = BigInt(text);
    if (n < min || n > max) throw parsingError(`Unable to parse ${what} value '${text}'`);
    return n;
  }

  /** ` timestamp` and the spaces after it, or nothing read. */
  private timestamp(): bigint | undefined {
    const start = this.at;
    const m = this.match(SPACES) && this.match(SIGNED);
    if (!m) {
      this.at = start;
      return undefined;
    }
    const n = this.integer(m[0], I64_MIN, I64_MAX, 'timestamp');
    this.match(SPACES);
    return n;
  }
}

function toMetrics(line: ParsedLine): RemapValue[] {
  return line.fields.map(([field, value]) => {
    if (typeof value !== 'number') {
      throw new Error(
        "Error while converting InfluxDB line protocol metric to Vector's metric model: field set values of type string are not supported",
      );
    }
    const metric: Record<string, RemapValue> = { name: `${line.measurement}_${field}` };
    if (line.tags.size > 0) metric.tags = Object.fromEntries(line.tags);
    if (line.timestamp !== undefined) metric.timestamp = new Timestamp(line.timestamp);
    metric.kind = 'absolute';
    metric.gauge = { value: floatValue(value) };
    return metric;
  });
}
