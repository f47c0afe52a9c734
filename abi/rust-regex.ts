// The regex crate's iteration semantics over the engine of ./regex.ts: which matches an iteration reports,
// how `$` references in a replacement expand, and UTF-8 byte offsets of UTF-16 positions.

import type { RegexMatch, RustRegex } from './regex.js';

/** One past the code point starting at `index` (surrogate pairs are one character, as in Rust). */
function nextCharIndex(text: string, index: number): number {
  const c = text.charCodeAt(index);
  return c >= 0xd800 && c < 0xdc00 && index + 1 < text.length ? index + 2 : index + 1;
}

/**
 * The matches of `re` in `text`, left to right, as the regex crate's `find_iter` reports them: an empty
 * match where the previous match ended is skipped.
 */
export function* rustMatches(re: RustRegex, text: string): Generator<RegexMatch> {
  let from = 0;
  let lastEnd = -1;
  while (from <= text.length) {
    const m = re.exec(text, from);
    if (!m) return;
    from = m.end;
    if (m.end === m.start) {
      from = nextCharIndex(text, m.end);
      if (m.start === lastEnd) continue;
    }
    lastEnd = m.end;
    yield m;
  }
}

/**
 * The pieces of `text` between matches (`Regex::splitn`): at most `limit` (> 0), the last one holding the
 * rest. Returned as [start, end) UTF-16 index pairs.
 */
export function rustSplit(re: RustRegex, text: string, limit: number): number[] {
  const bounds: number[] = [];
  let rest = 0;
  if (limit > 1) {
    for (const m of rustMatches(re, text)) {
      bounds.push(rest, m.start);
      rest = m.end;
      if (bounds.length / 2 === limit - 1) break;
    }
  }
  bounds.push(rest, text.length);
  return bounds;
}

/** `Regex::replacen`: the first `limit` matches (all when negative) replaced by `replacement`'s expansion. */
export function rustReplace(re: RustRegex, text: string, replacement: string, limit: number): string {
  const literal = !replacement.includes('$');
  let out = '';
  let rest = 0;
  let count = 0;
  for (const m of rustMatches(re, text)) {
    if (count++ === limit) break;
    out += text.slice(rest, m.start) + (literal ? replacement : expandReplacement(replacement, re, m));
    rest = m.end;
  }
  return count === 0 ? text : out + text.slice(rest);
}

const CAPTURE_NAME = /^[0-9A-Za-z_]+/;

/**
 * The regex crate's `Captures::expand`: `$$` is a dollar; `$name`/`$1` take the longest run of
 * `[0-9A-Za-z_]`, `${name}` anything up to `}`; a name of digits is a group number; a missing or unmatched
 * group inserts nothing; a `$` starting no reference stays as it is.
 */
export function expandReplacement(template: string, re: RustRegex, m: RegexMatch): string {
  let out = '';
  let at = 0;
  for (let dollar = template.indexOf('$'); dollar >= 0; dollar = template.indexOf('$', at)) {
    out += template.slice(at, dollar);
    at = dollar + 1;
    if (template[at] === '$') {
      out += '$';
      at++;
      continue;
    }
    let name: string | undefined;
    if (template[at] === '{') {
      const close = template.indexOf('}', at + 1);
      if (close >= 0) {
        name = template.slice(at + 1, close);
        at = close + 1;
      }
    } else {
      name = CAPTURE_NAME.exec(template.slice(at))?.[0];
      if (name !== undefined) at += name.length;
    }
    if (name === undefined) {
      out += '$';
      continue;
    }
    out += groupText(re, m, name) ?? '';
  }
  return out + template.slice(at);
}

function groupText(re: RustRegex, m: RegexMatch, name: string): string | undefined {
  const number = /^\+?[0-9]+$/.test(name) ? Number(name) : re.names.find(([n]) => n === name)?.[1];
  return number === undefined ? undefined : m.groups[number];
}

/** Converts increasing UTF-16 indices of `text` to UTF-8 byte offsets in one pass. */
export class Utf8Offsets {
  private index = 0;
  private offset = 0;
  private readonly ascii: boolean;

  constructor(private readonly text: string, byteLength: number) {
    this.ascii = byteLength === text.length;
  }

  /** The byte offset of UTF-16 index `index` (not below the previous call's). */
  at(index: number): number {
    if (this.ascii) return index;
    for (; this.index < index; this.index++) {
      const c = this.text.charCodeAt(this.index);
      // A surrogate pair is 4 bytes: 2 for each half.
      this.offset += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
    }
    return this.offset;
  }
}
