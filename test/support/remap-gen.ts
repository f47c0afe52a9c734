// Random well-typed remap programs and random events, from a seed. The differential test against the
// reference engine (test/compiler/differential.test.ts) and the fuzzer (scripts/fuzz.mjs) share it.
//
// Programs are built bottom-up from the kind each position needs: literals, variables, event paths
// coerced with `string(.a) ?? "x"`-style fallbacks, operators, `if`, closures, and calls of the function
// library chosen by their definitions' parameter and return kinds. A call the definition says can fail
// gets `!` (so the program compiles; a failing call is a runtime error both engines must report).
// `extreme: true` adds what breaks engines: numbers at the i64/u32 edges, repetition near 2^31–2^32,
// huge indexes, deep nesting, long and odd strings, NaN-producing arithmetic.

import type { ArgInfo, CallInfo, FunctionDef, Parameter } from '../../compiler/functions/define.js';
import { K, fromBits, type Kind } from '../../compiler/types/kind.js';

/** mulberry32: small, fast, and the same sequence on every platform. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** A function the generator may call, under the name the target engine knows it by. */
export interface Callable {
  name: string;
  def: FunctionDef;
}

export interface GeneratorOptions {
  functions: readonly Callable[];
  /** Add extreme values and shapes (for the fuzzer). */
  extreme?: boolean;
  /** Maximum expression depth (default 3). */
  depth?: number;
  /** Statements before the final expression (default 1–5). */
  statements?: number;
}

/** The kinds a generated expression has: one of these, or `any` (an event path, a closure variable). */
type Want = 'string' | 'integer' | 'float' | 'boolean' | 'timestamp' | 'array' | 'object' | 'null' | 'any';

const BITS: Record<Exclude<Want, 'any'>, number> = {
  string: K.Bytes,
  integer: K.Integer,
  float: K.Float,
  boolean: K.Boolean,
  timestamp: K.Timestamp,
  array: K.Array,
  object: K.Object,
  null: K.Null,
};
const VALUE_KINDS = Object.keys(BITS) as Exclude<Want, 'any'>[];

/** Keys events use, so that generated paths often find something. Programs read them and never write them. */
const KEYS = ['a', 'b', 'message', 'status', 'tags', 'n', 'nested', 'ts', 'host', 'x'];
/**
 * Fields programs write: whole (`.out = …`), or one level down in `.deep`/`.list`, which are never written
 * whole. Keeping reads and writes apart keeps every path read of kind `any` (so `int(.a) ?? 0` stays
 * fallible) and every parent of a write an object or array (no E642).
 */
const WRITE_KEYS = ['out', 'res', 'y'];
/** Functions whose path argument the generator writes by hand (they change the event's type). */
const HAND_WRITTEN = new Set(['del', 'unnest']);

/** Strings that parsers and converters have something to do with. */
const STRINGS = [
  '',
  'a',
  'hello world',
  'Hello, World!',
  '  padded  ',
  'foo_bar-Baz qux',
  'héllo wörld',
  '日本語テキスト',
  '🎉👍🏽',
  'e\u0301',
  '42',
  '-17',
  '3.14',
  '1e3',
  'true',
  'no',
  'null',
  '0x1F',
  '9223372036854775808',
  '2020-10-10T16:00:00Z',
  '2021-02-03T04:05:06.789+01:00',
  '1614556800',
  '10/Oct/2000:13:55:36 -0700',
  '{"a":1,"b":[true,null,"x"],"c":{"d":2.5}}',
  '[1,2,3]',
  '"quoted"',
  '{"broken":',
  'a=1 b=2 c="three four"',
  'level=info msg="started" dur=1.5s',
  'k1:v1,k2:v2',
  'key=value&x=%20y',
  "<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - BOM'su root' failed",
  '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
  'https://user:pw@example.com:8080/path/to?q=1&r=two#frag',
  '192.168.0.1',
  '10.0.0.0/8',
  '::1',
  '2001:db8::ff00:42:8329',
  'aGVsbG8gd29ybGQ=',
  '68656c6c6f',
  'hello%20world',
  'xn--mnchen-3ya',
  'Mozilla/5.0 (X11; Linux x86_64)',
  'line one\nline two',
  'tab\tseparated\tvalues',
  'a,b,"c,d"',
  '\u001b[31mred\u001b[0m',
  'ends with space ',
  '1.5 KiB',
  '100ms',
  '1h30m',
  'GET',
  'ERROR',
  'warning',
];

const REGEXES = [
  String.raw`r'^\d+$'`,
  String.raw`r'(?P<word>\w+)'`,
  String.raw`r'[aeiou]'`,
  String.raw`r'(?i)hello'`,
  String.raw`r'^(?P<ip>[\d.]+) - (?P<user>\S+)'`,
  String.raw`r'\s+'`,
  String.raw`r'o'`,
  String.raw`r'(?P<k>\w+)=(?P<v>\w+)'`,
];

const TIMESTAMPS = [
  "t'2020-10-10T16:00:00Z'",
  "t'1970-01-01T00:00:00Z'",
  "t'2021-02-03T04:05:06.789123Z'",
  "t'1999-12-31T23:59:59+05:00'",
];

const EXTREME_INTEGERS = [
  '9223372036854775807',
  '-9223372036854775807',
  '2147483647',
  '2147483648',
  '4294967295',
  '4294967296',
  '4294967297',
  '-2147483649',
  '-1',
  '0',
  '1000000000000',
  '65536',
];
const EXTREME_FLOATS = [
  '1.7976931348623157e308',
  '-1.7976931348623157e308',
  '5e-324',
  '0.0',
  '-0.0',
  '1e308',
  '123456789.123456789',
];
const EXTREME_STRINGS = [
  '"x" * 2147483647',
  '"ab" * 2147483648',
  '"x" * 4294967296',
  '"abc" * 1431655766',
  '"x" * 100000',
  '"🎉" * 30000',
  '"a" * 9223372036854775807',
  '"\\u{10FFFF}\\u{0}\\u{7F}"',
];

function quote(text: string, unicodeEscapes = false): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\0') out += '\\0';
    // `\u{…}` escapes are VRL 0.33+; the reference engine (0.25) has no escape for other controls.
    else if (code < 0x20 || code === 0x7f) out += unicodeEscapes ? `\\u{${code.toString(16)}}` : '';
    else out += ch;
  }
  return out + '"';
}

interface Expr {
  src: string;
  /** Kind bits the expression resolves to (every bit of `any` for event paths). */
  bits: number;
}

const ANY_VALUE_BITS = K.Bytes | K.Integer | K.Float | K.Boolean | K.Timestamp | K.Regex | K.Null | K.Array | K.Object;

/** The kind a definition's `returns` gives for these arguments, or `any` when it needs more than kinds. */
function returnBits(def: FunctionDef, call: CallInfo): number {
  try {
    const kind = typeof def.returns === 'function' ? def.returns(call) : def.returns;
    return kind.bits & ANY_VALUE_BITS;
  } catch {
    return ANY_VALUE_BITS;
  }
}

function isFallible(def: FunctionDef, call: CallInfo): boolean {
  try {
    return typeof def.fallible === 'function' ? def.fallible(call) : def.fallible;
  } catch {
    return true;
  }
}

const single = (bits: number): boolean => bits !== 0 && (bits & (bits - 1)) === 0;

export class ProgramGenerator {
  private readonly random: Random;
  private readonly extreme: boolean;
  private readonly maxDepth: number;
  private readonly functions: readonly Callable[];
  /** Functions by the single kind they return (only those without a closure). */
  private readonly byReturn = new Map<number, Callable[]>();
  private readonly closures: Callable[];
  private variables: { name: string; bits: number }[] = [];
  private counter = 0;

  constructor(
    random: Random,
    private readonly options: GeneratorOptions,
  ) {
    this.random = random;
    this.extreme = options.extreme ?? false;
    this.maxDepth = options.depth ?? 3;
    this.functions = options.functions.filter((f) => !f.def.closure && !HAND_WRITTEN.has(f.def.name));
    this.closures = options.functions.filter((f) => f.def.closure);
    for (const f of this.functions) {
      const bits = returnBits(f.def, { args: {} });
      if (!single(bits)) continue;
      const list = this.byReturn.get(bits) ?? [];
      list.push(f);
      this.byReturn.set(bits, list);
    }
  }

  /** A program: a few statements (assignments to the event and variables, closures) and a final expression. */
  program(): string {
    this.variables = [];
    this.counter = 0;
    const count = this.options.statements ?? 1 + this.random.int(5);
    const lines: string[] = [];
    for (let i = 0; i < count; i++) lines.push(this.statement());
    // Replacing the whole event comes last: after it, the event's type is known and reads are no longer `any`.
    if (this.random.chance(0.1))
      lines.push(`. = ${this.expr(this.random.pick(['object', 'any', 'string'] as const), 0, true).src}`);
    // biome-ignore lint/suspicious/noDuplicateElseIf: each chance() draws anew
    else if (this.extreme && this.random.chance(0.1))
      lines.push(`. = ${this.random.pick(['"just a string"', '42', '[1, 2, 3]', 'null', '3.5', 'true'])}`);
    lines.push(this.random.chance(0.3) ? '.' : this.expr('any', 0, true).src);
    return lines.join('\n');
  }

  private statement(): string {
    const r = this.random.next();
    if (r < 0.3) return `${this.writePath()} = ${this.expr('any', 0, true).src}`;
    if (r < 0.55) {
      const want = this.random.pick(VALUE_KINDS);
      const value = this.expr(want, 0, true);
      const name = `v${this.counter++}`;
      this.variables.push({ name, bits: value.bits });
      return `${name} = ${value.src}`;
    }
    if (r < 0.62) return `del(${this.writePath()})`;
    if (r < 0.75 && this.closures.length > 0) return `${this.writePath()} = ${this.closure()}`;
    if (r < 0.8) {
      const name = `v${this.counter++}`;
      const fallible = this.fallibleCall();
      this.variables.push({ name, bits: ANY_VALUE_BITS }, { name: `err${name}`, bits: K.Bytes | K.Null });
      return `${name}, err${name} = ${fallible}`;
    }
    if (r < 0.85 && this.extreme) return this.extremeStatement();
    return `${this.writePath()} = ${this.call(this.random.pick(this.functions), 0).src}`;
  }

  private extremeStatement(): string {
    const index = this.random.pick([
      '4294967297',
      '2147483648',
      '-4294967297',
      '100000',
      '9223372036854775807',
      '-1',
      '1000000',
    ]);
    return this.random.pick([
      `.list[${index}] = 1`,
      `.${this.random.pick(WRITE_KEYS)} = ${this.deep(this.random.pick([50, 500, 5000]))}`,
      `.${this.random.pick(WRITE_KEYS)} = ${this.random.pick(EXTREME_STRINGS)}`,
      `.huge[${index}].x = "y"`,
    ]);
  }

  /** A nested array or object `n` levels deep. */
  private deep(n: number): string {
    return this.random.chance(0.5) ? '['.repeat(n) + '1' + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  }

  /** A call that can fail on its arguments: for the `ok, err = ...` form. */
  private fallibleCall(): string {
    return this.random.pick([
      `parse_json(${this.expr('string', 1).src})`,
      `to_int(${this.pathRead()})`,
      `parse_timestamp(${this.expr('string', 1).src}, "%+")`,
      `int(${this.pathRead()})`,
      `parse_key_value(${this.expr('string', 1).src})`,
      `decode_base64(${this.expr('string', 1).src})`,
    ]);
  }

  private closure(): string {
    const f = this.random.pick(this.closures);
    const outer = this.variables;
    const withVars = (vars: { name: string; bits: number }[], body: () => string): string => {
      this.variables = [...outer, ...vars];
      try {
        return body();
      } finally {
        this.variables = outer;
      }
    };
    const target = this.random.chance(this.extreme ? 0.5 : 0.3) ? '.' : this.collection();
    switch (f.def.name) {
      case 'for_each':
        return withVars(
          [
            { name: 'k', bits: K.Bytes | K.Integer },
            { name: 'v', bits: ANY_VALUE_BITS },
          ],
          () => `${f.name}(${target}) -> |k, v| { ${this.writePath()} = ${this.expr('any', 1, true).src} }`,
        );
      case 'map_values':
        return withVars(
          [{ name: 'v', bits: ANY_VALUE_BITS }],
          () =>
            `${f.name}(${target}${this.random.chance(0.3) ? ', recursive: true' : ''}) -> |v| { ${this.expr('any', 1, true).src} }`,
        );
      case 'map_keys':
        return withVars(
          [{ name: 'k', bits: K.Bytes }],
          () =>
            `${f.name}(${this.random.chance(0.5) ? '.' : this.expr('object', 1).src}${this.random.chance(0.3) ? ', recursive: true' : ''}) -> |k| { ${this.expr('string', 1, true).src} }`,
        );
      case 'filter':
        return withVars(
          [
            { name: 'k', bits: K.Bytes | K.Integer },
            { name: 'v', bits: ANY_VALUE_BITS },
          ],
          () => `${f.name}(${target}) -> |k, v| { ${this.expr('boolean', 1, true).src} }`,
        );
      case 'replace_with':
        return `${f.name}(${this.expr('string', 1).src}, ${this.random.pick(REGEXES)}) -> |m| { upcase(m.string) }`;
      default:
        return this.call(this.random.pick(this.functions), 0).src;
    }
  }

  private collection(): string {
    return this.random.chance(0.5) ? this.expr('object', 1).src : this.expr('array', 1).src;
  }

  private path(): string {
    const root = this.random.pick(KEYS);
    const r = this.random.next();
    if (r < 0.6) return `.${root}`;
    if (r < 0.8) return `.${root}.${this.random.pick(KEYS)}`;
    if (r < 0.95) return `.${root}[${this.random.int(3) - (this.random.chance(0.3) ? 3 : 0)}]`;
    return `.${quote(this.random.pick(['with space', 'ü', '@timestamp']))}`;
  }

  private writePath(): string {
    const r = this.random.next();
    if (r < 0.6) return `.${this.random.pick(WRITE_KEYS)}`;
    if (r < 0.8) return `.deep.${this.random.pick(KEYS)}`;
    return `.list[${this.random.int(4) - (this.random.chance(0.3) ? 4 : 0)}]`;
  }

  private pathRead(): string {
    return this.path();
  }

  /** An expression of the wanted kind (for `any`, of any kind); `if` only where a statement may stand. */
  expr(want: Want, depth: number, statement = false): Expr {
    if (want === 'any') {
      const r = this.random.next();
      if (r < 0.3) return { src: this.pathRead(), bits: ANY_VALUE_BITS };
      const anyVar = this.variables.filter((v) => !single(v.bits));
      if (r < 0.4 && anyVar.length > 0) return { src: this.random.pick(anyVar).name, bits: ANY_VALUE_BITS };
      return this.expr(this.random.pick(VALUE_KINDS), depth, statement);
    }
    const bits = BITS[want];
    const r = this.random.next();
    const deeper = depth < this.maxDepth;
    if (!deeper || r < 0.25) return this.literal(want);
    const vars = this.variables.filter((v) => v.bits === bits);
    if (r < 0.35 && vars.length > 0) return { src: this.random.pick(vars).name, bits };
    if (r < 0.5) return this.coerced(want);
    if (r < 0.75) {
      const candidates = this.byReturn.get(bits);
      if (candidates && candidates.length > 0) return this.call(this.random.pick(candidates), depth + 1);
    }
    if (r < 0.9) {
      const op = this.operator(want, depth + 1);
      if (op) return op;
    }
    if (r < 0.95 && statement) {
      const cond = this.expr('boolean', depth + 1).src;
      return {
        src: `if ${cond} { ${this.expr(want, depth + 1, true).src} } else { ${this.expr(want, depth + 1, true).src} }`,
        bits,
      };
    }
    return this.literal(want);
  }

  /** An event path turned into the wanted kind, with a fallback for the other kinds (parenthesized: `??` binds loosely). */
  private coerced(want: Exclude<Want, 'any'>): Expr {
    const expr = this.coercion(want);
    return { src: `(${expr.src})`, bits: expr.bits };
  }

  private coercion(want: Exclude<Want, 'any'>): Expr {
    const path = this.pathRead();
    const bits = BITS[want];
    const fallback = this.literal(want).src;
    switch (want) {
      case 'string':
        return { src: this.random.pick([`string(${path}) ?? ${fallback}`, `string!(${path})`]), bits };
      case 'integer':
        return {
          src: this.random.pick([`int(${path}) ?? ${fallback}`, `to_int(${path}) ?? ${fallback}`, `int!(${path})`]),
          bits,
        };
      case 'float':
        return { src: this.random.pick([`float(${path}) ?? ${fallback}`, `to_float(${path}) ?? ${fallback}`]), bits };
      case 'boolean':
        return {
          src: this.random.pick([
            `bool(${path}) ?? ${fallback}`,
            `is_string(${path})`,
            `exists(${this.path()})`,
            `is_null(${path})`,
          ]),
          bits,
        };
      case 'timestamp':
        return { src: `timestamp(${path}) ?? ${fallback}`, bits };
      case 'array':
        return { src: `array(${path}) ?? ${fallback}`, bits };
      case 'object':
        return { src: `object(${path}) ?? ${fallback}`, bits };
      case 'null':
        return { src: 'null', bits };
    }
  }

  private operator(want: Exclude<Want, 'any'>, depth: number): Expr | undefined {
    const bits = BITS[want];
    const side = (w: Want) => this.expr(w, depth).src;
    switch (want) {
      case 'string':
        if (this.extreme && this.random.chance(0.2))
          return { src: `${side('string')} * ${this.random.pick(EXTREME_INTEGERS)}`, bits };
        return { src: `${side('string')} + ${side('string')}`, bits };
      case 'integer': {
        const op = this.random.pick(['+', '-', '*']);
        return { src: `(${side('integer')} ${op} ${side('integer')})`, bits };
      }
      case 'float': {
        if (this.random.chance(0.3))
          return { src: `(${side('float')} / ${this.random.pick(['2.0', '0.5', '3'])})`, bits };
        const op = this.random.pick(['+', '-', '*']);
        return { src: `(${side('float')} ${op} ${side('float')})`, bits };
      }
      case 'boolean': {
        const r = this.random.next();
        if (r < 0.25) return { src: `!${this.literal('boolean').src}`, bits };
        if (r < 0.5) return { src: `(${side('boolean')} ${this.random.pick(['&&', '||'])} ${side('boolean')})`, bits };
        if (r < 0.75)
          return {
            src: `(${side('integer')} ${this.random.pick(['<', '<=', '>', '>=', '==', '!='])} ${side('integer')})`,
            bits,
          };
        return { src: `(${side('string')} ${this.random.pick(['==', '!='])} ${side('string')})`, bits };
      }
      case 'array':
        return { src: `[${side('any')}, ${side('any')}]`, bits };
      case 'object':
        return {
          src: `{ ${quote(this.random.pick(KEYS))}: ${side('any')}, ${quote(this.random.pick(KEYS))}: ${side('any')} }`,
          bits,
        };
      default:
        return undefined;
    }
  }

  /** A call with an argument for every required parameter and some optional ones. */
  private call(f: Callable, depth: number): Expr {
    const parts: string[] = [];
    const args: Record<string, ArgInfo> = {};
    let positional = true;
    for (const param of f.def.parameters) {
      if (!param.required && this.random.chance(0.6)) {
        positional = false;
        continue;
      }
      const arg = this.argument(param, depth);
      args[param.name] = { kind: fromBits(arg.bits) as Kind, span: [0, 0], text: arg.src };
      parts.push(positional ? arg.src : `${param.name}: ${arg.src}`);
    }
    const call: CallInfo = { args };
    const fallible = isFallible(f.def, call);
    return { src: `${f.name}${fallible ? '!' : ''}(${parts.join(', ')})`, bits: returnBits(f.def, call) };
  }

  private argument(param: Parameter, depth: number): Expr {
    if (param.enum) return { src: quote(this.random.pick(param.enum)), bits: K.Bytes };
    if (param.path) return { src: this.path(), bits: ANY_VALUE_BITS };
    const kinds = VALUE_KINDS.filter((w) => (param.kinds & BITS[w]) !== 0);
    if ((param.kinds & K.Regex) !== 0 && (kinds.length === 0 || this.random.chance(0.5))) {
      return { src: this.random.pick(REGEXES), bits: K.Regex };
    }
    if (kinds.length === 0) return this.literal('string');
    const want = this.random.pick(kinds);
    // Literal-only parameters (formats, patterns, flags) get literals; others any expression of the kind.
    if (param.literal) return this.literal(want);
    return this.expr(want, depth);
  }

  literal(want: Exclude<Want, 'any'>): Expr {
    const bits = BITS[want];
    const extreme = this.extreme && this.random.chance(0.25);
    switch (want) {
      case 'string':
        if (extreme)
          return {
            src: this.random.chance(0.5)
              ? this.random.pick(EXTREME_STRINGS)
              : quote(randomText(this.random, 20_000), true),
            bits,
          };
        return { src: quote(this.random.chance(0.8) ? this.random.pick(STRINGS) : randomText(this.random, 12)), bits };
      case 'integer':
        if (extreme) return { src: this.random.pick(EXTREME_INTEGERS), bits };
        return { src: String(this.random.pick([0, 1, 2, 3, -1, 7, 10, 42, 100, -250, 1000, 65535])), bits };
      case 'float':
        if (extreme) return { src: this.random.pick(EXTREME_FLOATS), bits };
        return { src: this.random.pick(['0.0', '1.5', '-2.25', '3.14159', '100.0', '0.1', '1000.0', '-0.5']), bits };
      case 'boolean':
        return { src: this.random.chance(0.5) ? 'true' : 'false', bits };
      case 'timestamp':
        return { src: this.random.pick(TIMESTAMPS), bits };
      case 'null':
        return { src: 'null', bits };
      case 'array':
        return {
          src: this.random.pick([
            '[]',
            '[1, 2, 3]',
            '["a", "b"]',
            '[null, true, 1.5]',
            '[[1], {"a": 2}]',
            '["x", "y", "x"]',
          ]),
          bits,
        };
      case 'object':
        return {
          src: this.random.pick([
            '{}',
            '{"a": 1}',
            '{"a": {"b": "c"}, "d": [1, 2]}',
            '{"x": null, "y": "z"}',
            '{"message": "hi", "n": 3}',
          ]),
          bits,
        };
    }
  }
}

/** Random text over a few alphabets: ASCII, accents, CJK, emoji, combining marks, controls. */
export function randomText(random: Random, maxLength: number): string {
  const length = random.int(maxLength + 1);
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCXYZ0123456789',
    ' ,.;:=-_/\\"\'{}[]()<>|&%$#@!?*+',
    'éüßçñøå',
    '日本語中文한국어',
    '🎉👍🏽😀🇫🇷',
    '\u0301\u200b\u00a0\ufeff',
    '\n\t\r\u0000\u0007\u001b',
  ];
  let out = '';
  const alphabet = Array.from(random.pick(alphabets));
  for (let i = 0; i < length; i++)
    out += random.chance(0.9) ? random.pick(alphabet) : random.pick(Array.from(random.pick(alphabets)));
  return out;
}

/** A JSON value for events: objects most of the time, with the generator's keys, nested, and every scalar kind. */
function randomValue(random: Random, depth: number, extreme = false): unknown {
  const r = random.next();
  if (depth <= 0 || r < 0.45) {
    const s = random.next();
    if (s < 0.35) return random.chance(0.7) ? random.pick(STRINGS) : randomText(random, extreme ? 5000 : 16);
    if (s < 0.55)
      return random.pick([
        0,
        1,
        -1,
        42,
        200,
        404,
        500,
        65535,
        2 ** 31,
        2 ** 32 + 1,
        -(2 ** 40),
        Number.MAX_SAFE_INTEGER,
      ]);
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: sample data, not π
    if (s < 0.7) return random.pick([0.5, -1.25, 3.14159, 1e-7, 1.5e300, 123.456]);
    if (s < 0.8) return random.chance(0.5);
    if (s < 0.9) return null;
    return random.pick(TIMESTAMPS).slice(2, -1);
  }
  if (r < 0.7) {
    const object: Record<string, unknown> = {};
    const n = random.int(5);
    for (let i = 0; i < n; i++)
      object[random.chance(0.9) ? random.pick(KEYS) : randomText(random, 6)] = randomValue(random, depth - 1, extreme);
    return object;
  }
  const n = random.int(extreme ? 8 : 4);
  return Array.from({ length: n }, () => randomValue(random, depth - 1, extreme));
}

/** An event: an object with most generator keys, sometimes another kind of value (a bare line). */
export function randomEvent(random: Random, extreme = false): unknown {
  if (random.chance(0.12)) return randomValue(random, 0, extreme);
  if (random.chance(0.05)) return randomValue(random, 2, extreme);
  const event: Record<string, unknown> = {};
  for (const key of KEYS) if (random.chance(0.55)) event[key] = randomValue(random, 3, extreme);
  return event;
}
