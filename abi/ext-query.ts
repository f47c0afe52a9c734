// The external log-search query syntax (Datadog's) of match_ext_query (match_datadog_query): a query parses
// into a predicate over an object. The compiler parses a literal query to refuse an invalid one, as VRL does;
// the JS function parses each query once and runs it. Free text matches words of `message`
// (case-insensitive); `@attr:` facets match attribute values (nested by dots); reserved names (host, source,
// service, status, trace_id, message, timestamp) match top-level fields; any other `name:` matches `name:value`
// entries of the `tags` array. Values may be phrases, `*`/`?` wildcards, ranges (`[a TO b]`, `{a TO b}`,
// `*` open) and comparisons (`>5`); terms combine with AND (implicit), OR, NOT/`-` and parentheses.

import type { RemapValue } from './values.js';
import { RustRegex } from './regex.js';

export type QueryPredicate = (event: Record<string, RemapValue>) => boolean;
/** A test of one value's text (numbers compare as numbers where both sides are numeric). */
type ValueTest = (text: string) => boolean;

const RESERVED: ReadonlySet<string> = new Set([
  'host',
  'source',
  'service',
  'status',
  'trace_id',
  'message',
  'timestamp',
]);
/** The predicate of a query; throws an Error (`invalid query: …`) when the query does not parse. */
export const parseExtQuery = (text: string): QueryPredicate => new QueryParser(text).parse();

class QueryParser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): QueryPredicate {
    this.skipSpace();
    if (this.at >= this.text.length) return () => true;
    const predicate = this.or();
    if (this.at < this.text.length) throw new Error(`invalid query: unexpected "${this.text.slice(this.at)}"`);
    return predicate;
  }

  private skipSpace(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private keyword(word: string): boolean {
    this.skipSpace();
    const re = new RegExp(`${word}(?=[\\s()]|$)`, 'y');
    re.lastIndex = this.at;
    if (!re.test(this.text)) return false;
    this.at = re.lastIndex;
    return true;
  }

  private or(): QueryPredicate {
    const terms = [this.and()];
    while (this.keyword('OR')) terms.push(this.and());
    return terms.length === 1 ? terms[0]! : (event) => terms.some((term) => term(event));
  }

  private and(): QueryPredicate {
    const terms = [this.unary()];
    for (;;) {
      this.skipSpace();
      if (this.at >= this.text.length || this.text[this.at] === ')') break;
      if (this.keyword('OR')) {
        this.at -= 2;
        break;
      }
      this.keyword('AND');
      terms.push(this.unary());
    }
    return terms.length === 1 ? terms[0]! : (event) => terms.every((term) => term(event));
  }

  private unary(): QueryPredicate {
    this.skipSpace();
    if (this.keyword('NOT') || this.text[this.at] === '-') {
      if (this.text[this.at] === '-') this.at++;
      const inner = this.unary();
      return (event) => !inner(event);
    }
    if (this.text[this.at] === '(') {
      this.at++;
      const inner = this.or();
      this.skipSpace();
      if (this.text[this.at] !== ')') throw new Error('invalid query: missing ")"');
      this.at++;
      return inner;
    }
    return this.term();
  }

  /** `[field:]value`. */
  private term(): QueryPredicate {
    const field = /((?:[^\s:()"\\]|\\.)+):(?!\s)/y;
    field.lastIndex = this.at;
    const m = field.exec(this.text);
    if (m) this.at = field.lastIndex;
    const name = m ? unescape(m[1]!) : undefined;
    const [test, text, phrase] = this.value();
    if (name === undefined) return freeText(text, phrase);
    if (name === '_exists_') return (event) => lookup(event, attributePath(text)) !== undefined;
    if (name === '_missing_') return (event) => lookup(event, attributePath(text)) === undefined;
    if (name.startsWith('@')) return (event) => matchesAny(lookup(event, attributePath(name.slice(1))), test);
    if (RESERVED.has(name)) return (event) => matchesAny(event[name], test);
    return (event) => {
      const tags = event.tags;
      if (!Array.isArray(tags)) return false;
      return tags.some((tag) => {
        const tagText = textOf(tag);
        if (tagText === undefined) return false;
        const colon = tagText.indexOf(':');
        return colon >= 0 ? tagText.slice(0, colon) === name && test(tagText.slice(colon + 1)) : false;
      });
    };
  }

  /** The value and its test; also its text and whether it was a quoted phrase (for free text). */
  private value(): [ValueTest, string, boolean] {
    const rest = this.text.slice(this.at);
    const range = /^([[{])\s*("(?:[^"\\]|\\.)*"|[^\s\]}]+)\s+TO\s+("(?:[^"\\]|\\.)*"|[^\s\]}]+)\s*([\]}])/.exec(rest);
    if (range) {
      this.at += range[0].length;
      return [rangeTest(bound(range[2]!), bound(range[3]!), range[1] === '[', range[4] === ']'), range[0], false];
    }
    const comparison = /^(>=|<=|>|<)((?:[^\s()\\]|\\.)+)/.exec(rest);
    if (comparison) {
      this.at += comparison[0].length;
      const limit = unescape(comparison[2]!);
      const op = comparison[1]!;
      return [(text) => compareWith(op, compare(text, limit)), comparison[0], false];
    }
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (quoted) {
      this.at += quoted[0].length;
      const phrase = unescape(quoted[1]!);
      return [(text) => text === phrase, phrase, true];
    }
    const word = /^(?:[^\s()\\]|\\.)+/.exec(rest);
    if (!word) throw new Error(`invalid query: expected a value at "${rest}"`);
    this.at += word[0].length;
    const raw = word[0];
    if (/(?<!\\)[*?]/.test(raw)) {
      const glob = wildcard(raw, '^', '$', '');
      return [(text) => glob.test(text), raw, false];
    }
    const exact = unescape(raw);
    return [
      (text) => text === exact || (isNumeric(text) && isNumeric(exact) && Number(text) === Number(exact)),
      exact,
      false,
    ];
  }
}

/**
 * Word boundaries that know Unicode letters (`\\b` knows only ASCII). They take the character next to the
 * word, which a yes/no test may: the engine has no look-around.
 */
const WORD_START = String.raw`(?:^|[^\p{L}\p{N}_])`;
const WORD_END = String.raw`(?:$|[^\p{L}\p{N}_])`;

function freeText(text: string, phrase: boolean): QueryPredicate {
  const regex = phrase
    ? new RustRegex(`(?i)${WORD_START}${escapeRegex(text)}${WORD_END}`)
    : wildcard(text, WORD_START, WORD_END, 'i');
  return (event) => {
    const message = textOf(event.message);
    return message !== undefined && regex.test(message);
  };
}

/** A word with `*` (any run) and `?` (one character) wildcards as a regex, matched in linear time. */
function wildcard(raw: string, start: string, end: string, flags: string): RustRegex {
  let source = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) source += escapeRegex(raw[++i]!);
    else if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else source += escapeRegex(c);
  }
  return new RustRegex(`(?s${flags})${start}${source}${end}`);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const unescape = (text: string) => text.replace(/\\(.)/g, '$1');
const isNumeric = (text: string) => text.trim() !== '' && Number.isFinite(Number(text));

function bound(text: string): string | undefined {
  if (text === '*') return undefined;
  return text.startsWith('"') ? unescape(text.slice(1, -1)) : unescape(text);
}

/** Numbers where both sides are numeric, else text by code points. */
function compare(a: string, b: string): number {
  if (isNumeric(a) && isNumeric(b)) return Math.sign(Number(a) - Number(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareWith(op: string, order: number): boolean {
  switch (op) {
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    default:
      return order <= 0;
  }
}

function rangeTest(low: string | undefined, high: string | undefined, lowIn: boolean, highIn: boolean): ValueTest {
  return (text) => {
    if (low !== undefined && !compareWith(lowIn ? '>=' : '>', compare(text, low))) return false;
    return high === undefined || compareWith(highIn ? '<=' : '<', compare(text, high));
  };
}

function attributePath(name: string): string[] {
  return name.split('.');
}

function lookup(event: RemapValue, path: readonly string[]): RemapValue | undefined {
  let current: RemapValue | undefined = event;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current) || current instanceof Uint8Array) {
      return undefined;
    }
    current = (current as Record<string, RemapValue>)[segment];
  }
  return current;
}

/** The text a value is matched as: strings, numbers and booleans. */
function textOf(value: RemapValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A scalar matches the test; an array matches when one of its items does. */
function matchesAny(value: RemapValue | undefined, test: ValueTest): boolean {
  if (Array.isArray(value)) return value.some((item) => matchesAny(item, test));
  const text = textOf(value);
  return text !== undefined && test(text);
}
