// The one regex engine for VRL patterns (Rust's regex syntax) on event data. Rust's regex crate matches in
// time linear in the input, and so must we: a backtracking engine stalls a stream on `^(a+)+$` and a line of
// 30 `a`s. Every pattern is compiled by re2js (RE2's automata, linear-time) and runs on the regex VM in wasm
// where the runtime lends it (`useRegexVm`), else on re2js, which is slow in JS. A pattern that is provably
// safe for a backtracker runs on V8's RegExp instead, with the same results:
// - both engines get sources emitted from one scan of the Rust pattern, with every class that differs
//   between the dialects (`.`, `\d`, `\w`, `\s`) spelled out as explicit code point ranges, no flags, no
//   Unicode properties (anything else keeps the pattern on RE2 only);
// - RE2 finds the pattern anchored at the start of the text and one-pass (at every choice, at most one
//   branch can go on with the next character, as RE2's OnePass compiler checks). A backtracker running such
//   a pattern tries one start position, and every branch it abandons fails at the next character without
//   consuming it, so it does O(input × pattern²) steps.

import { createRequire } from 'node:module';
import type { RE2JS, RE2JSSyntaxException } from 're2js';

/** re2js (260 KB of JS), loaded when the first pattern is compiled: most runs of a cached program need none. */
let re2js: typeof import('re2js') | undefined;
const loadRe2js = () => (re2js ??= createRequire(import.meta.url)('re2js') as typeof import('re2js'));

/** One match: UTF-16 indexes of the whole match and the text of each group (undefined where it took no part). */
export interface RegexMatch {
  start: number;
  end: number;
  /** Group 0 is the whole match. */
  groups: ArrayLike<string | undefined>;
}

export class RegexSyntaxError extends Error {}

/**
 * The regex VM in wasm (stdlib-as/regex-vm.ts: RE2's automaton, linear-time, several times faster than
 * re2js), which the runtime lends to `RustRegex` with `useRegexVm` (abi imports nothing of the runtime).
 * `search` gives the capture slots of the leftmost-first match at byte `from` or later of the UTF-8 `text`
 * (byte offsets, group n at 2n and 2n + 1, -1 where it took no part), null without a match, and undefined
 * when the VM could not run (its memory limit): re2js answers then.
 */
export interface RegexVm {
  search(regex: RustRegex, text: Uint8Array, from: number): Int32Array | null | undefined;
}

let vm: RegexVm | undefined;

/** Runs the patterns V8's engine may not on `engine` rather than on re2js. */
export function useRegexVm(engine: RegexVm): void {
  vm = engine;
}

export class RustRegex {
  /** Named groups with their numbers, in the order they open. */
  readonly names: readonly (readonly [string, number])[];
  /** Capture groups, not counting the whole match. */
  readonly groupCount: number;
  private readonly re2: RE2JS;
  /** The pattern on V8's engine when it is proven linear there (see the top of this file). */
  private readonly fast: RegExp | undefined;
  /** Whether the regex VM may run the pattern (tests keep it on re2js, as they do V8's engine). */
  private readonly useVm: boolean;

  /**
   * Throws RegexSyntaxError with VRL's message when the pattern is invalid. `allowBacktracker: false` keeps
   * the pattern on RE2 (tests compare the two engines).
   */
  constructor(
    readonly pattern: string,
    allowBacktracker = true,
  ) {
    const sources = translate(pattern);
    this.re2 = compileRe2(sources.re2);
    const re2 = this.re2.re2Input;
    this.groupCount = re2.numSubexp;
    this.names = Object.entries(re2.namedGroups).sort((a, b) => a[1] - b[1]);
    const provenLinear = sources.js !== undefined && re2.onepass !== null;
    this.fast = allowBacktracker && provenLinear ? fastRegExp(sources.js!, this.groupCount) : undefined;
    this.useVm = allowBacktracker;
  }

  /** Whether the pattern runs on V8's engine (for tests of the choice). */
  get onBacktracker(): boolean {
    return this.fast !== undefined;
  }

  /** The leftmost-first match starting at UTF-16 index `from` or later. */
  exec(text: string, from = 0): RegexMatch | null {
    if (this.fast) {
      this.fast.lastIndex = from;
      const m = this.fast.exec(text);
      return m && { start: m.index, end: m.index + m[0].length, groups: m };
    }
    if (vm && this.useVm) {
      const m = vmExec(vm, this, text, from);
      if (m !== undefined) return m;
    }
    const m = this.re2.matcher(text);
    if (!m.find(from)) return null;
    const groups: (string | undefined)[] = [];
    for (let i = 0; i <= this.groupCount; i++) groups.push(m.group(i) ?? undefined);
    return { start: m.start(), end: m.end(), groups };
  }

  /** The named groups of a match of this regex, by name (undefined where a group took no part). */
  namedGroups(m: RegexMatch): Record<string, string | undefined> {
    const groups: Record<string, string | undefined> = Object.create(null);
    for (const [name, number] of this.names) groups[name] = m.groups[number];
    return groups;
  }

  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean {
    if (this.fast) {
      this.fast.lastIndex = 0;
      return this.fast.test(text);
    }
    if (vm && this.useVm) {
      const m = vmExec(vm, this, text, 0);
      if (m !== undefined) return m !== null;
    }
    return this.re2.test(text);
  }
}

/** The UTF-8 of the text searched last, and the offsets between its UTF-16 indexes and its bytes: an
 * iteration (`rustMatches`) searches one text again from each match. */
let searched: { text: string; bytes: Uint8Array; byteAt?: Uint32Array; indexAt?: Uint32Array } | undefined;
const utf8 = new TextEncoder();

function searchedText(text: string): NonNullable<typeof searched> {
  if (searched?.text !== text) searched = { text, bytes: utf8.encode(text) };
  if (searched.bytes.length !== text.length && !searched.byteAt) {
    // Not ASCII: map UTF-16 indexes to byte offsets and back, as TextEncoder writes them (a lone surrogate
    // becomes U+FFFD, three bytes).
    const byteAt = new Uint32Array(text.length + 1);
    const indexAt = new Uint32Array(searched.bytes.length + 1);
    let at = 0;
    for (let i = 0; i < text.length; i++) {
      byteAt[i] = at;
      indexAt[at] = i;
      const c = text.charCodeAt(i);
      if (c < 0x80) at += 1;
      else if (c < 0x800) at += 2;
      else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        byteAt[++i] = at;
        at += 4;
      } else at += 3;
    }
    byteAt[text.length] = at;
    indexAt[at] = text.length;
    Object.assign(searched, { byteAt, indexAt });
  }
  return searched;
}

/** `regex.exec` on the VM; undefined when the VM could not run. */
function vmExec(engine: RegexVm, regex: RustRegex, text: string, from: number): RegexMatch | null | undefined {
  const { bytes, byteAt, indexAt } = searchedText(text);
  const slots = engine.search(regex, bytes, byteAt ? byteAt[from]! : from);
  if (!slots) return slots;
  const index = (offset: number) => (indexAt ? indexAt[offset]! : offset);
  const groups: (string | undefined)[] = [];
  for (let i = 0; i <= regex.groupCount; i++) {
    const start = slots[2 * i]!;
    groups.push(start < 0 ? undefined : text.slice(index(start), index(slots[2 * i + 1]!)));
  }
  return { start: index(slots[0]!), end: index(slots[1]!), groups };
}

/** RE2's compiled form of a Rust pattern (its automaton is what stdlib-as/regex-vm.ts runs, see ./regex-program.ts). */
export function compileRustPattern(pattern: string): RE2JS {
  return compileRe2(translate(pattern).re2);
}

function compileRe2(source: string): RE2JS {
  const { RE2JS, RE2JSSyntaxException } = loadRe2js();
  try {
    return RE2JS.compile(source);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) throw new RegexSyntaxError(syntaxMessage(error));
    throw error;
  }
}

/** The parse error VRL would report for a regex literal, or undefined when it is valid. */
export function validateRegex(pattern: string): string | undefined {
  try {
    new RustRegex(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof RegexSyntaxError) return error.message;
    throw error;
  }
}

/** Our wording for an unclosed class or group (RE2 quotes the whole rest of the pattern). */
const SYNTAX_MESSAGES: Readonly<Record<string, string>> = {
  'missing closing ]': 'unterminated character class',
  'missing closing )': 'unterminated group',
};

/** RE2's reason and the part of the pattern it points at. */
function syntaxMessage(error: RE2JSSyntaxException): string {
  const known = SYNTAX_MESSAGES[error.error];
  if (known) return `regex parse error: ${known}`;
  const input = error.getPattern();
  return `regex parse error: ${error.error}${input ? `: ${input}` : ''}`;
}

function fastRegExp(source: string, groupCount: number): RegExp | undefined {
  try {
    const re = new RegExp(source, 'gu');
    // A guard on the emitter: both engines must number the same groups.
    return new RegExp(`${source}|`, 'u').exec('')!.length - 1 === groupCount ? re : undefined;
  } catch {
    return undefined;
  }
}

interface Sources {
  re2: string;
  /** Undefined when the pattern uses something the fast path does not take. */
  js: string | undefined;
}

type Ranges = readonly (readonly [number, number])[];

const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** Unicode's White_Space, Rust's `\s` (RE2's is ASCII, JS's adds U+FEFF and lacks U+0085). */
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const PERL_CLASSES: Readonly<Record<string, Ranges>> = { d: DIGIT, w: WORD, s: SPACE };

const LEADING_FLAGS = /^\(\?([imsxU]+)\)/;
const REPETITION = /^\{\d+(?:,\d*)?\}/;
const GROUP_NAME = /^\(\?P?<([^>=!]*)>/;
const FLAG_GROUP = /^\(\?[A-Za-z-]*[:)]/;
const CODE_POINT_ESCAPE =
  /^\\(?:x\{([0-9A-Fa-f]+)\}|x([0-9A-Fa-f]{2})|u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|U\{([0-9A-Fa-f]+)\}|U([0-9A-Fa-f]{8}))/;
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
const ALNUM = /^[0-9A-Za-z]$/;

const re2Char = (c: number) =>
  ALNUM.test(String.fromCodePoint(c)) ? String.fromCodePoint(c) : `\\x{${c.toString(16)}}`;
const jsChar = (c: number) =>
  ALNUM.test(String.fromCodePoint(c)) ? String.fromCodePoint(c) : `\\u{${c.toString(16)}}`;
const rangesOf = (ranges: Ranges, char: (c: number) => string) =>
  ranges.map(([lo, hi]) => (lo === hi ? char(lo) : `${char(lo)}-${char(hi)}`)).join('');

/**
 * Rust regex → RE2 source, and JS RegExp source (flag `u`) for the subset described at the top. Leading
 * extended mode `(?x)` is applied here (RE2 has none); RE2 parses and checks everything else.
 */
function translate(pattern: string): Sources {
  let source = pattern;
  let extended = false;
  let re2 = '';
  for (let m = LEADING_FLAGS.exec(source); m; m = LEADING_FLAGS.exec(source)) {
    extended ||= m[1]!.includes('x');
    const rest = m[1]!.replaceAll('x', '');
    if (rest) re2 += `(?${rest})`;
    source = source.slice(m[0].length);
  }
  if (extended) source = stripExtended(source);
  let js: string | undefined = re2 === '' ? '' : undefined;
  const emit = (forRe2: string, forJs: string | undefined) => {
    re2 += forRe2;
    js = js === undefined || forJs === undefined ? undefined : js + forJs;
  };
  let inClass = false;
  let classStart = 0;
  for (let i = 0; i < source.length; ) {
    const c = source.codePointAt(i)!;
    const ch = String.fromCodePoint(c);
    const rest = source.slice(i);
    if (ch === '\\') {
      i += escape(rest, inClass, emit);
      continue;
    }
    if (inClass) {
      if (ch === ']' && i > classStart) {
        emit(']', ']');
        inClass = false;
      } else if (ch === '[' && rest[1] === ':') {
        const end = rest.indexOf(':]');
        const posix = end < 0 ? rest : rest.slice(0, end + 2);
        emit(posix, undefined);
        i += posix.length;
        continue;
      } else if (ch === '[') {
        throw new RegexSyntaxError('regex parse error: nested character classes are not supported');
      } else if (/^(?:&&|--|~~)/.test(rest)) {
        throw new RegexSyntaxError(`regex parse error: character class operation ${rest.slice(0, 2)} is not supported`);
      } else if (ch === '-') {
        emit('-', '-');
      } else {
        emit(re2Char(c), jsChar(c));
      }
      i += ch.length;
      continue;
    }
    if (ch === '[') {
      const negated = rest[1] === '^';
      emit(negated ? '[^' : '[', negated ? '[^' : '[');
      inClass = true;
      i += negated ? 2 : 1;
      classStart = i;
      continue;
    }
    if (ch === '(') {
      const named = GROUP_NAME.exec(rest);
      const flags = named ? undefined : FLAG_GROUP.exec(rest);
      if (rest.startsWith('(?:')) {
        emit('(?:', '(?:');
        i += 3;
      } else if (named) {
        emit(`(?P<${named[1]}>`, '(');
        i += named[0].length;
      } else if (flags) {
        if (flags[0].includes('x')) {
          throw new RegexSyntaxError(
            'regex parse error: extended mode (?x) is only supported at the start of the pattern',
          );
        }
        emit(flags[0], undefined);
        i += flags[0].length;
      } else if (/^\(\?<?[=!]/.test(rest)) {
        throw new RegexSyntaxError(
          'regex parse error: look-around, including look-ahead and look-behind, is not supported',
        );
      } else if (rest.startsWith('(?')) {
        // Other group syntax: RE2 rejects it, as Rust does, and its message quotes it.
        const opening = /^\(\?.?/su.exec(rest)![0];
        emit(opening, undefined);
        i += opening.length;
      } else {
        emit('(', '(');
        i += 1;
      }
      continue;
    }
    if (ch === '{') {
      const repetition = REPETITION.exec(rest)?.[0];
      emit(repetition ?? '{', repetition);
      i += repetition?.length ?? 1;
      continue;
    }
    if (ch === '.') emit('.', '[^\\n]');
    else if ('^$|)*+?'.includes(ch)) emit(ch, ch);
    else emit(re2Char(c), jsChar(c));
    i += ch.length;
  }
  return { re2, js };
}

/** Emits one escape sequence at the start of `text`; returns its length. */
function escape(text: string, inClass: boolean, emit: (forRe2: string, forJs: string | undefined) => void): number {
  const letter = text[1] ?? '';
  const perl = PERL_CLASSES[letter.toLowerCase()];
  if (perl) {
    const negated = letter !== letter.toLowerCase();
    if (!inClass)
      emit(`[${negated ? '^' : ''}${rangesOf(perl, re2Char)}]`, `[${negated ? '^' : ''}${rangesOf(perl, jsChar)}]`);
    else if (!negated) emit(rangesOf(perl, re2Char), rangesOf(perl, jsChar));
    // RE2's `\D` and `\W` are Rust's (ASCII); its `\S` inside a class is ASCII (see docs/regex.md).
    else emit(`\\${letter}`, undefined);
    return 2;
  }
  const codePoint = CODE_POINT_ESCAPE.exec(text);
  if (codePoint) {
    const hex = codePoint.slice(1).find((group) => group !== undefined)!;
    const c = Number.parseInt(hex, 16);
    if (c > 0x10ffff) throw new RegexSyntaxError(`regex parse error: invalid code point escape: ${codePoint[0]}`);
    emit(re2Char(c), jsChar(c));
    return codePoint[0].length;
  }
  if (letter in CONTROL_ESCAPES) {
    emit(re2Char(CONTROL_ESCAPES[letter]!), jsChar(CONTROL_ESCAPES[letter]!));
    return 2;
  }
  if (!inClass && (letter === 'b' || letter === 'B')) {
    emit(`\\${letter}`, `\\${letter}`);
    return 2;
  }
  if (!inClass && (letter === 'A' || letter === 'z')) {
    emit(`\\${letter}`, letter === 'A' ? '^' : '$');
    return 2;
  }
  if (letter === 'p' || letter === 'P') {
    const property = /^\\[pP](?:\{([^}]*)\}|.)/su.exec(text);
    if (!property) {
      emit(text, undefined);
      return text.length;
    }
    emit(property[1] === undefined ? property[0] : `\\${letter}{${unicodeClassName(property[1])}}`, undefined);
    return property[0].length;
  }
  if (/^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(letter)) {
    emit(re2Char(letter.charCodeAt(0)), jsChar(letter.charCodeAt(0)));
    return 2;
  }
  // Anything else (`\1`, `\Z`, a trailing `\`…) is RE2's to accept or reject.
  const rest = letter === '' ? '\\' : `\\${String.fromCodePoint(text.codePointAt(1)!)}`;
  emit(rest, undefined);
  return rest.length;
}

/** Long names of general categories, which Rust accepts and RE2 does not (by Rust's loose matching). */
const GENERAL_CATEGORIES: Readonly<Record<string, string>> = {
  letter: 'L',
  uppercaseletter: 'Lu',
  lowercaseletter: 'Ll',
  titlecaseletter: 'Lt',
  modifierletter: 'Lm',
  otherletter: 'Lo',
  mark: 'M',
  nonspacingmark: 'Mn',
  spacingmark: 'Mc',
  enclosingmark: 'Me',
  number: 'N',
  decimalnumber: 'Nd',
  digit: 'Nd',
  letternumber: 'Nl',
  othernumber: 'No',
  punctuation: 'P',
  connectorpunctuation: 'Pc',
  dashpunctuation: 'Pd',
  openpunctuation: 'Ps',
  closepunctuation: 'Pe',
  initialpunctuation: 'Pi',
  finalpunctuation: 'Pf',
  otherpunctuation: 'Po',
  symbol: 'S',
  mathsymbol: 'Sm',
  currencysymbol: 'Sc',
  modifiersymbol: 'Sk',
  othersymbol: 'So',
  separator: 'Z',
  spaceseparator: 'Zs',
  lineseparator: 'Zl',
  paragraphseparator: 'Zp',
  other: 'C',
  control: 'Cc',
  format: 'Cf',
  privateuse: 'Co',
  surrogate: 'Cs',
};

/** RE2's name for a Unicode class: `gc=`/`sc=` prefixes dropped, long category names shortened. */
function unicodeClassName(name: string): string {
  const value = name.replace(/^\s*(?:gc|general_?category|sc|script)\s*[=:]\s*/i, '').trim();
  return GENERAL_CATEGORIES[value.toLowerCase().replace(/[\s_-]/g, '')] ?? value;
}

/** Removes insignificant whitespace and `#` comments of extended mode (outside classes and escapes). */
function stripExtended(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += c + (source[++i] ?? '');
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    out += c;
  }
  return out;
}
