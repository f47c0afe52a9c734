// Capture groups of a regex known at compile time, and the kinds of the match objects that
// parse_regex, parse_regex_all and replace_with build from them.

import type { ArgInfo } from '../define.js';
import { BYTES, arrayOf, exactObject, objectOf, type Kind } from '../../types/kind.js';
import { STRING_OR_NULL } from './result-kinds.js';
import { RegexSyntaxError, RustRegex } from '../../../abi/regex.js';

export interface CaptureGroups {
  /** Capturing groups, not counting the whole match (group 0). */
  count: number;
  /** Names of the named groups, in order. */
  names: string[];
}

/**
 * The capturing groups of a pattern in Rust regex syntax, as the regex engine numbers them (so flags such
 * as `(?x)`, whose comments hold no groups, count as Rust counts); undefined for an invalid pattern.
 */
export function captureGroups(pattern: string): CaptureGroups | undefined {
  try {
    const re = new RustRegex(pattern);
    return { count: re.groupCount, names: re.names.map(([name]) => name) };
  } catch (error) {
    if (error instanceof RegexSyntaxError) return undefined;
    throw error;
  }
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
