// Capture groups of a regex known at compile time, and the kinds of the match objects that
// parse_regex, parse_regex_all and replace_with build from them.

import type { ArgInfo } from '../define.js';
import { BYTES, arrayOf, exactObject, objectOf, type Kind } from '../../types/kind.js';
import { STRING_OR_NULL } from './result-kinds.js';

export interface CaptureGroups {
  /** Capturing groups, not counting the whole match (group 0). */
  count: number;
  /** Names of the named groups, in order. */
  names: string[];
}

const NAMED_GROUP = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/;

/** Counts the capturing groups of a pattern in Rust regex syntax (escapes and classes skipped). */
export function captureGroups(pattern: string): CaptureGroups {
  const names: string[] = [];
  let count = 0;
  let classDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (classDepth > 0) {
      // Rust classes nest (`[a-z&&[^aeiou]]`); a `]` right after the opening `[` or `[^` is literal.
      if (c === '[') classDepth++;
      else if (c === ']' && !/\[\^?$/.test(pattern.slice(0, i))) classDepth--;
      continue;
    }
    if (c === '[') {
      classDepth = 1;
      continue;
    }
    if (c !== '(') continue;
    const named = NAMED_GROUP.exec(pattern.slice(i));
    if (named) {
      count++;
      names.push(named[1]!);
    } else if (pattern[i + 1] !== '?') count++;
  }
  return { count, names };
}

/** The groups of a regex argument when its value is known at compile time. */
export function constantGroups(arg: ArgInfo | undefined): CaptureGroups | undefined {
  return arg?.constant?.kind === 'regex' ? captureGroups(arg.constant.pattern) : undefined;
}

/**
 * What parse_regex returns for one match: numbered groups (present with `numeric_groups`, null when a
 * group did not take part) and named groups; without a known pattern, strings or nulls under any key.
 */
export function captureObject(groups: CaptureGroups | undefined): Kind {
  if (!groups) return objectOf(STRING_OR_NULL);
  const fields: Record<string, Kind> = {};
  for (let n = 0; n <= groups.count; n++) fields[String(n)] = STRING_OR_NULL;
  for (const name of groups.names) fields[name] = BYTES;
  return exactObject(fields);
}

/** The `match` variable of replace_with's closure: the matched text, the groups, and any named group. */
export const REPLACE_MATCH: Kind = objectOf(STRING_OR_NULL, { string: BYTES, captures: arrayOf(STRING_OR_NULL) });
