// A public suffix list in Mozilla's format, read as VRL's parse_etld reads its `psl` file (the publicsuffix
// crate): the compiler reads the file when the call compiles, to refuse a missing or invalid one, and the
// JS function reads it on first use.

import { readFileSync } from 'node:fs';

/** A list's rules as written (`a.b`, `*.b`, `!a.b`), lowercased. */
export type SuffixRules = ReadonlySet<string>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses the list at `path` (relative to the working directory, as VRL); throws an Error saying
 * why it cannot, in VRL's words.
 */
export function readPublicSuffixList(path: string): SuffixRules {
  let text: string;
  try {
    text = utf8.decode(readFileSync(path));
  } catch {
    throw new Error('Unable to read psl file');
  }
  const rules = parsePublicSuffixList(text);
  if (!rules) throw new Error('Unable to parse psl file');
  return rules;
}

/**
 * The rules of a list, or undefined when it has none or an invalid one: rules count from a
 * `BEGIN ICANN DOMAINS` or `BEGIN PRIVATE DOMAINS` line on, `//` lines are comments, a rule is a line's first
 * word; an exception (`!`) needs two labels and no label may be empty.
 */
function parsePublicSuffixList(text: string): SuffixRules | undefined {
  const rules = new Set<string>();
  let inSection = false;
  for (const line of text.split('\n')) {
    if (line.includes('BEGIN ICANN DOMAINS') || line.includes('BEGIN PRIVATE DOMAINS')) inSection = true;
    else if (line.startsWith('//') || !inSection) continue;
    else {
      const rule = line.trim().split(/\s+/)[0]!;
      if (rule === '') continue;
      const labels = (rule.startsWith('!') ? rule.slice(1) : rule).split('.');
      if ((rule.startsWith('!') && labels.length < 2) || labels.includes('')) return undefined;
      rules.add(rule.toLowerCase());
    }
  }
  return rules.size ? rules : undefined;
}
