// host_metrics's include and exclude lists: glob patterns as Rust's `glob` crate matches them with its default
// options (`*` and `**` match any characters, `/` included; `?` one; `[…]`, `[!…]` a class), and Vector's rule
// for a missing value (a mount without device): excluded by an `includes` list, never by an `excludes` one.

import { z } from 'zod';

interface FilterListOptions {
  includes?: string[] | undefined;
  excludes?: string[] | undefined;
}

export interface FilterList {
  contains(value: string | undefined): boolean;
}

/** The regular expression of a glob pattern; undefined when the pattern is invalid (an unclosed class). */
function globRegExp(pattern: string): RegExp | undefined {
  let source = '';
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at]!;
    if (char === '*') {
      while (pattern[at + 1] === '*') at++;
      source += '[\\s\\S]*';
    } else if (char === '?') {
      source += '[\\s\\S]';
    } else if (char === '[') {
      const negated = pattern[at + 1] === '!';
      const start = at + (negated ? 2 : 1);
      // A `]` first in the class is one of its characters.
      const end = pattern.indexOf(']', start + 1);
      if (end < 0) return undefined;
      const members = [...pattern.slice(start, end)]
        .map((member) => (member === '-' ? '-' : member.replace(/[\\\]^[]/g, '\\$&')))
        .join('');
      source += `[${negated ? '^' : ''}${members}]`;
      at = end;
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  try {
    return new RegExp(`^${source}$`, 'u');
  } catch {
    return undefined;
  }
}

const patterns = z.array(z.string().refine((pattern) => globRegExp(pattern) !== undefined, 'invalid glob pattern'));

/** A filter option (`devices`, `mountpoints`…). When absent, it includes everything but a missing value, as
 * Vector's default `includes: ["*"]` does; given without `includes`, it includes that too. */
export const filterOption = z
  .strictObject({ includes: patterns.optional(), excludes: patterns.optional() })
  .default({ includes: ['*'] });

export function filterList(options: FilterListOptions): FilterList {
  const compile = (patterns: string[] | undefined) => patterns?.map((pattern) => globRegExp(pattern)!);
  const includes = compile(options.includes);
  const excludes = compile(options.excludes);
  return {
    contains(value) {
      if (includes !== undefined && (value === undefined || !includes.some((pattern) => pattern.test(value))))
        return false;
      return excludes === undefined || value === undefined || !excludes.some((pattern) => pattern.test(value));
    },
  };
}
