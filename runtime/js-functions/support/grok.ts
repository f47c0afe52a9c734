// Grok patterns compiled to regexes, once per distinct pattern text and alias set. Every capture becomes
// an internal group `g<N>` (`fields` maps them back to the pattern's names, which may repeat or hold dots).
// Matching is linear in the input on every path (docs/regex.md): a pattern runs on the one regex engine of
// abi/regex.ts, or, when it writes look-around (the library's IPV4, TIME, NUMBER and QUOTEDSTRING do), on
// the regex VM in wasm, which checks bounded look-around in place (./grok-look-around.ts). `parse_grok` itself
// runs in the stdlib (stdlib-as/grok.ts) on the program this file gives the host (`grokProgram`); the JS
// matcher answers what the stdlib leaves to it (no match, errors) and `parse_groks`.

import { readdirSync, readFileSync } from 'node:fs';
import { compileRustPattern, RegexSyntaxError, RustRegex } from '../../../abi/regex.js';
import { regexProgram } from '../../../abi/regex-program.js';
import { searchRegexProgram } from '../../codec-module.js';
import { useGrokPrograms, type GrokProgram } from '../../imports.js';
import { LookAroundError, markLookArounds } from './grok-look-around.js';
import { DATADOG_MATCHERS, GROK_PATTERNS, type Matcher } from './grok-patterns.js';
import { dateMatcher, type DateMatcher } from './grok-date.js';
import { LOGSTASH_PATTERN_DIRECTORY } from '../../grok-pattern-files.js';

export interface GrokField {
  group: string;
  name: string;
  /** A matcher's implicit conversion or the reference's filter (`%{data:x:integer}`). */
  filter?: string;
  /** A filter's argument (`nullIf("-")`). */
  argument?: string;
  /** The `date` matcher's conversion, when no filter is given. */
  date?: DateMatcher;
}

export interface Grok {
  /** The text of each group of the first match, by group name (undefined where it took no part); undefined without a match. */
  match(text: string): Record<string, string | undefined> | undefined;
  fields: GrokField[];
}

export interface GrokOptions {
  aliases?: Readonly<Record<string, string>>;
  /** Datadog grammar (parse_groks): its matchers, filters and whole-value matching. */
  datadog: boolean;
}

/** A quoted argument, `"…"` or `'…'`: two groups, one of which holds its text. */
const QUOTED = String.raw`(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`;
/** `%{NAME}`, `%{NAME:field}`, `%{NAME:field:filter}`; Datadog matchers may take one or two quoted arguments. */
const REFERENCE = new RegExp(
  String.raw`%\{(\w+)(?:\(\s*${QUOTED}(?:\s*,\s*${QUOTED})?[^)]*\))?(?::([^:}]*))?(?::([^}]*))?\}`,
  'g',
);
/** A named group written in the pattern itself (`(?<name>…)` or `(?P<name>…)`), not a lookbehind. */
const INLINE_GROUP = /(?<!\\)\(\?P?<(?![=!])([^>]+)>/g;
const FILTER_CALL = /^(\w+)(?:\(\s*"((?:[^"\\]|\\.)*)"\s*\))?$/;
const MAX_DEPTH = 64;

/** Compiled patterns by grammar, aliases (as JSON, '' for none) and pattern: a call's key is looked up per
 * event, so the pattern text is not copied into a bigger key. */
const cache = new Map<string, Map<string, Grok>>();

export class GrokCompileError extends Error {}

export function compileGrok(pattern: string, options: GrokOptions): Grok {
  const set = `${options.datadog}${options.aliases ? JSON.stringify(options.aliases) : ''}`;
  let patterns = cache.get(set);
  if (!patterns) cache.set(set, (patterns = new Map()));
  let grok = patterns.get(pattern);
  if (!grok) {
    const fields: GrokField[] = [];
    const source = expand(pattern, options, fields, 0);
    grok = { match: matcher(source, options.datadog), fields };
    patterns.set(pattern, grok);
  }
  return grok;
}

function matcher(source: string, datadog: boolean): Grok['match'] {
  return compiled(() => {
    const marked = markLookArounds(source);
    const pattern = datadog ? `(?s)^(?:${marked.source})$` : marked.source;
    if (marked.lookArounds.length === 0) return engineMatcher(new RustRegex(pattern));
    return vmMatcher(regexProgram(pattern, marked.lookArounds), compileRustPattern(pattern).re2Input.namedGroups);
  });
}

/** `compile()`, its regex and look-around errors as grok's compile error. */
function compiled<T>(compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (error instanceof RegexSyntaxError || error instanceof LookAroundError) {
      throw new GrokCompileError(`failed to compile grok pattern: ${error.message}`);
    }
    throw error;
  }
}

/** `parse_grok`'s pattern as the stdlib runs it; throws GrokCompileError as `compileGrok` does. */
function grokProgram(pattern: string): GrokProgram {
  const fields: GrokField[] = [];
  const source = expand(pattern, { datadog: false }, fields, 0);
  return compiled(() => {
    const marked = markLookArounds(source);
    const groups = compileRustPattern(marked.source).re2Input.namedGroups;
    return {
      program: regexProgram(marked.source, marked.lookArounds),
      fields: fields.map(({ group, name }) => ({ group: groups[group]!, name })),
    };
  });
}

// A module that calls parse_grok loads this file (its JS function): from then on the stdlib's grok runs.
useGrokPrograms(grokProgram);

function engineMatcher(regex: RustRegex): Grok['match'] {
  return (text) => {
    const m = regex.exec(text);
    return m ? regex.namedGroups(m) : undefined;
  };
}

function vmMatcher(program: Uint8Array, names: Readonly<Record<string, number>>): Grok['match'] {
  const groups = Object.entries(names);
  return (text) => {
    const bytes = Buffer.from(text, 'utf8');
    const search = searchRegexProgram(program, bytes);
    if ('trap' in search) throw new Error(search.trap.message);
    const slots = search.value;
    if (!slots) return undefined;
    const captured: Record<string, string | undefined> = Object.create(null);
    for (const [name, group] of groups) {
      const start = slots[2 * group]!;
      captured[name] = start < 0 ? undefined : bytes.toString('utf8', start, slots[2 * group + 1]);
    }
    return captured;
  };
}

function expand(text: string, options: GrokOptions, fields: GrokField[], depth: number): string {
  if (depth > MAX_DEPTH) throw new GrokCompileError('failed to compile grok pattern: recursion too deep');
  const named = (name: string, filter?: string, argument?: string, date?: DateMatcher) => {
    const group = `g${fields.length}`;
    fields.push({ group, name, filter, argument, date });
    return `(?<${group}>`;
  };
  return text
    .replace(INLINE_GROUP, (_, name: string) => named(name))
    .replace(
      REFERENCE,
      (_, ref: string, dq1?: string, sq1?: string, dq2?: string, sq2?: string, field?: string, filterText?: string) => {
        const definition = lookup(ref, [dq1 ?? sq1, dq2 ?? sq2], options);
        const body = definition.raw ? definition.pattern : expand(definition.pattern, options, fields, depth + 1);
        if (!field) return `(?:${body})`;
        if (filterText) return `${named(field, ...parseFilter(filterText))}${body})`;
        return `${named(field, definition.convert, undefined, definition.date)}${body})`;
      },
    );
}

function lookup(
  name: string,
  [argument, second]: Array<string | undefined>,
  options: GrokOptions,
): Matcher & { raw?: boolean; date?: DateMatcher } {
  const alias = options.aliases?.[name];
  if (alias !== undefined) return { pattern: alias };
  if (options.datadog) {
    if (name === 'regex' && argument !== undefined) return { pattern: unescapeArgument(argument), raw: true };
    if (name === 'date' && argument !== undefined) {
      let date;
      try {
        date = dateMatcher(unescapeArgument(argument), second === undefined ? undefined : unescapeArgument(second));
      } catch (error) {
        throw new GrokCompileError(`failed to compile grok pattern: ${(error as Error).message}`);
      }
      return { pattern: date.pattern, raw: true, date };
    }
    const matcher = DATADOG_MATCHERS[name];
    if (matcher) return matcher;
  }
  const pattern = GROK_PATTERNS[name] ?? logstashPatterns().get(name);
  if (pattern === undefined) {
    throw new GrokCompileError(
      `failed to compile grok pattern: The given pattern definition name "${name}" could not be found in the definition map`,
    );
  }
  return { pattern };
}

const PATTERN_LINE = /^(\w+)\s+(.*)$/;
let logstashLibrary: Map<string, string> | undefined;

/**
 * logstash's other pattern files (haproxy, java, nagios, redis, …), read once when a pattern first names
 * something the base set lacks. Files in name order, a later definition replacing an earlier one; the base
 * set still wins, being the JS-ready form of `grok-patterns`. Atomic groups `(?>…)` become plain groups,
 * as in the base set.
 */
function logstashPatterns(): Map<string, string> {
  if (!logstashLibrary) {
    logstashLibrary = new Map();
    for (const file of readdirSync(LOGSTASH_PATTERN_DIRECTORY)
      .filter((f) => !/[.A-Z]/.test(f))
      .sort()) {
      for (const line of readFileSync(new URL(file, LOGSTASH_PATTERN_DIRECTORY), 'utf8').split('\n')) {
        const m = PATTERN_LINE.exec(line.trim());
        if (m) logstashLibrary.set(m[1]!, m[2]!.replaceAll('(?>', '(?:'));
      }
    }
  }
  return logstashLibrary;
}

function parseFilter(text: string): [string, string | undefined] {
  const m = FILTER_CALL.exec(text.trim());
  if (!m) throw new GrokCompileError(`failed to compile grok pattern: invalid filter "${text}"`);
  return [m[1]!, m[2] === undefined ? undefined : unescapeArgument(m[2])];
}

const unescapeArgument = (text: string) => text.replace(/\\(["'\\])/g, '$1');
