// The regex crate's iteration over the JS engine of ./regex.ts (for the JS functions; the module's engine
// has its own, stdlib-as/regex.ts): which matches an iteration reports.

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
