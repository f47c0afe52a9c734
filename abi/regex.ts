// VRL regexes use Rust's syntax; programs run them on the JS engine. This translates a pattern (named groups
// `(?P<n>…)`, leading inline flags, `\A`/`\z`, Unicode classes) and reports what cannot be expressed.

export interface TranslatedRegex {
  source: string;
  flags: string;
}

const LEADING_FLAGS = /^\(\?([imsxU]+)\)/;

/** Rust regex → JS RegExp source and flags; throws with a message when the pattern is invalid. */
export function translateRegex(pattern: string, literalFlags = ''): TranslatedRegex {
  let source = pattern;
  const flags = new Set(literalFlags.split('').filter(Boolean));
  for (let m = LEADING_FLAGS.exec(source); m; m = LEADING_FLAGS.exec(source)) {
    for (const f of m[1]!) flags.add(f);
    source = source.slice(m[0].length);
  }
  if (flags.has('U')) throw new Error('swap-greed flag (?U) is not supported');
  if (flags.has('x')) source = stripExtended(source);
  flags.delete('x');
  if (/\(\?[imsxU-]+[:)]/.test(source)) throw new Error('inline flags are only supported at the start of the pattern');
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])');
  const unicode = /\\[pP]/.test(source);
  const jsFlags = [...flags].join('') + (unicode ? 'u' : '');
  new RegExp(source, jsFlags); // throws on invalid syntax
  return { source, flags: jsFlags };
}

/** Removes insignificant whitespace and `#` comments of extended mode (outside classes and escapes). */
function stripExtended(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') { out += c + (source[++i] ?? ''); continue; }
    if (inClass) { if (c === ']') inClass = false; out += c; continue; }
    if (c === '[') { inClass = true; out += c; continue; }
    if (/\s/.test(c)) continue;
    if (c === '#') { while (i < source.length && source[i] !== '\n') i++; continue; }
    out += c;
  }
  return out;
}

/** The parse error VRL would report for a regex literal, or undefined when it is valid. */
export function validateRegex(pattern: string, flags = ''): string | undefined {
  try {
    translateRegex(pattern, flags);
    return undefined;
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    const reason = text.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return `regex parse error: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  }
}
