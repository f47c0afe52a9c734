// Glob patterns of component ids, as Vector matches them (Rust's `glob` crate, default options): `?` one
// character, `*` any run (dots included), `**` as a whole path component, `[ab]`, `[a-z]`, `[!ab]`. A
// pattern the crate rejects is rejected here with its words.

export class GlobError extends Error {}

const WILDCARDS = 'wildcards are either regular `*` or recursive `**`';
const RECURSIVE_WILDCARDS = 'recursive wildcards must form a single path component';
const INVALID_RANGE = 'invalid range pattern';

function syntaxError(position: number, message: string): GlobError {
  return new GlobError(`Pattern syntax error near position ${position}: ${message}`);
}

/** A test of whole strings against `pattern`; throws GlobError when the pattern is invalid. */
export function compileGlob(pattern: string): (text: string) => boolean {
  const chars = [...pattern];
  let source = '';
  for (let i = 0; i < chars.length; ) {
    const c = chars[i]!;
    if (c === '?') {
      source += '[^]';
      i++;
    } else if (c === '*') {
      const start = i;
      while (chars[i] === '*') i++;
      const count = i - start;
      if (count > 2) throw syntaxError(start + 2, WILDCARDS);
      if (count === 1) source += '[^]*';
      else {
        if (start > 0 && chars[start - 1] !== '/') throw syntaxError(start - 1, RECURSIVE_WILDCARDS);
        if (i === chars.length) source += '[^]*';
        else if (chars[i] === '/') {
          // `a/**/b` also matches `a/b`: zero or more whole components.
          source += '(?:[^]*/)?';
          i++;
        } else throw syntaxError(i, RECURSIVE_WILDCARDS);
      }
    } else if (c === '[') {
      // As the crate reads a class: `]` right after `[` or `[!` is a member, not the end.
      const negated = chars[i + 1] === '!';
      const first = i + (negated ? 2 : 1);
      const close = chars.indexOf(']', first + 1);
      if (close < 0 || (negated && i + 4 > chars.length)) throw syntaxError(i, INVALID_RANGE);
      source += `[${negated ? '^' : ''}${charClass(chars.slice(first, close))}]`;
      i = close + 1;
    } else {
      source += literal(c);
      i++;
    }
  }
  const regex = new RegExp(`^${source}$`, 'u');
  return (text) => regex.test(text);
}

function literal(c: string): string {
  return `\\u{${c.codePointAt(0)!.toString(16)}}`;
}

/** Members of a class: single characters and `a-z` ranges (a reversed range matches nothing, as in the crate). */
function charClass(members: readonly string[]): string {
  let out = '';
  for (let i = 0; i < members.length; ) {
    if (i + 2 < members.length && members[i + 1] === '-') {
      const [from, to] = [members[i]!, members[i + 2]!];
      if (from.codePointAt(0)! <= to.codePointAt(0)!) out += `${literal(from)}-${literal(to)}`;
      i += 3;
    } else {
      out += literal(members[i]!);
      i++;
    }
  }
  return out;
}
