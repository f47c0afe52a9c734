// The Rust → JS RegExp translation the runtime used before its linear-time engine (abi/regex.ts), kept as
// the oracle of the differential test. `rustCorrected` applies the fixes where the new engine gives Rust's
// answer and the translation did not (docs/regex.md lists them): code points rather than UTF-16 units
// (flag `u`), `.` is anything but `\n`, and `\s` is Unicode's White_Space.

const LEADING_FLAGS = /^\(\?([imsxU]+)\)/;
const WHITE_SPACE = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

export function translatedRegExp(pattern: string, rustCorrected: boolean): RegExp {
  let source = pattern;
  const flags = new Set<string>();
  for (let m = LEADING_FLAGS.exec(source); m; m = LEADING_FLAGS.exec(source)) {
    for (const f of m[1]!) flags.add(f);
    source = source.slice(m[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])');
  if (rustCorrected) {
    source = correctClasses(source);
    flags.add('u');
  } else if (/\\[pP]/.test(source)) {
    flags.add('u');
  }
  return new RegExp(source, `${[...flags].join('')}g`);
}

/** `.`, `\s` and `\S` outside brackets, `\s` inside, as Rust means them. */
function correctClasses(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[++i] ?? '';
      if (next === 's') out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${WHITE_SPACE}]`;
      else out += c + next;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') inClass = true;
    out += c === '.' ? '[^\\n]' : c;
  }
  return out;
}

/** The matches as the translation iterated them (the regex crate's `find_iter`): [start, end, ...groups]. */
export function translatedMatches(re: RegExp, text: string): (number | string | undefined)[][] {
  const out: (number | string | undefined)[][] = [];
  re.lastIndex = 0;
  let lastEnd = -1;
  while (re.lastIndex <= text.length) {
    const m = re.exec(text);
    if (!m) break;
    const end = m.index + m[0].length;
    if (re.unicode && isInsidePair(text, m.index)) {
      // V8 still tries an empty match between the halves of a surrogate pair; a code point has no inside.
      re.lastIndex = m.index + 1;
      continue;
    }
    if (end === m.index) {
      const c = text.charCodeAt(end);
      re.lastIndex = c >= 0xd800 && c < 0xdc00 && end + 1 < text.length ? end + 2 : end + 1;
      if (m.index === lastEnd) continue;
    }
    lastEnd = end;
    out.push([m.index, end, ...m]);
  }
  return out;
}

function isInsidePair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const at = text.charCodeAt(index);
  return before >= 0xd800 && before < 0xdc00 && at >= 0xdc00 && at < 0xe000;
}
