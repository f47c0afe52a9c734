// uap-core's regexes.yaml (browser, OS and device rules), read on first use, applied as the reference
// implementations do: the first matching rule wins; `$N` in replacements is the Nth group. The rules run on
// the linear-time regex engine, each compiled when a scan first runs it; a scan passes over the rules whose
// literals the text lacks (as uap's reference parsers prefilter), tests the others (no groups) and takes the
// groups of the one rule that matches.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { library } from './library.js';
import { RustRegex, type RegexMatch } from '../../../abi/regex.js';
import { requiredLiterals } from './required-literal.js';

interface Rule {
  regex: string;
  regex_flag?: string;
  [replacement: string]: string | undefined;
}

interface CompiledRule {
  regex?: RustRegex;
  /** Sets of literals of which every match holds one each (`requiredLiterals`; lower case for a
   * case-insensitive rule). */
  literals?: string[][];
  rule: Rule;
}

export interface UapResult {
  browser: { family: string | null; major: string | null; minor: string | null; patch: string | null };
  os: {
    family: string | null;
    major: string | null;
    minor: string | null;
    patch: string | null;
    patch_minor: string | null;
  };
  device: { family: string | null; brand: string | null; model: string | null };
}

const yamlLibrary = library<typeof import('yaml')>('yaml');

let rules: { browser: CompiledRule[]; os: CompiledRule[]; device: CompiledRule[] } | undefined;

function loadRules(): NonNullable<typeof rules> {
  const path = createRequire(import.meta.url).resolve('uap-core/regexes.yaml');
  const yaml = yamlLibrary().parse(readFileSync(path, 'utf8')) as Record<string, Rule[]>;
  const compile = (list: Rule[] | undefined): CompiledRule[] => (list ?? []).map((rule) => ({ rule }));
  return {
    browser: compile(yaml.user_agent_parsers),
    os: compile(yaml.os_parsers),
    device: compile(yaml.device_parsers),
  };
}

/** The first rule that matches and its groups. A rule whose literals the text lacks is not run: a text is
 * tried on ~1,200 rules, and nearly all of them require literals. `lower`: the text in lower case when it is
 * ASCII (where ASCII case folding is the regex's), for the literals of case-insensitive rules. */
function first(list: readonly CompiledRule[], ua: string, lower: string | undefined): [Rule, RegexMatch] | undefined {
  for (const entry of list) {
    const insensitive = entry.rule.regex_flag === 'i';
    entry.literals ??= ruleLiterals(entry.rule.regex, insensitive);
    const text = insensitive ? lower : ua;
    if (text !== undefined && !holdsAll(text, entry.literals)) continue;
    const regex = (entry.regex ??= new RustRegex(`${insensitive ? '(?i)' : ''}${entry.rule.regex}`));
    if (regex.test(ua)) return [entry.rule, regex.exec(ua)!];
  }
  return undefined;
}

/** Whether `text` holds a literal of each set (loops: this runs for every rule on every text). */
function holdsAll(text: string, sets: readonly string[][]): boolean {
  for (const set of sets) {
    let held = false;
    for (const literal of set) {
      if (text.includes(literal)) {
        held = true;
        break;
      }
    }
    if (!held) return false;
  }
  return true;
}

/** The literal sets of a rule's pattern, in lower case for a case-insensitive rule (those sets with a literal
 * that is not ASCII left out). */
function ruleLiterals(pattern: string, insensitive: boolean): string[][] {
  const sets = requiredLiterals(pattern);
  if (!insensitive) return sets;
  return sets
    .map((set) => set.map(asciiLower))
    .filter((set): set is string[] => set.every((literal) => literal !== undefined));
}

/** `text` in lower case when it is ASCII (undefined otherwise: Unicode case folding pairs `k` with U+212A). */
function asciiLower(text: string): string | undefined {
  return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : undefined;
}

/** A replacement with `$N` substituted, else group `group`; empty and "Other" mean unknown. */
function field(rule: Rule, m: RegexMatch, replacement: string, group: number): string | null {
  const template = rule[replacement];
  const text =
    template !== undefined ? template.replace(/\$(\d)/g, (_, n: string) => m.groups[Number(n)] ?? '') : m.groups[group];
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

const unknown = (family: string | null) => (family === 'Other' ? null : family);

export function parseWithUap(ua: string): UapResult {
  rules ??= loadRules();
  const lower = asciiLower(ua);
  const browser = first(rules.browser, ua, lower);
  const os = first(rules.os, ua, lower);
  const device = first(rules.device, ua, lower);
  return {
    browser: browser
      ? {
          family: unknown(field(browser[0], browser[1], 'family_replacement', 1)),
          major: field(browser[0], browser[1], 'v1_replacement', 2),
          minor: field(browser[0], browser[1], 'v2_replacement', 3),
          patch: field(browser[0], browser[1], 'v3_replacement', 4),
        }
      : { family: null, major: null, minor: null, patch: null },
    os: os
      ? {
          family: unknown(field(os[0], os[1], 'os_replacement', 1)),
          major: field(os[0], os[1], 'os_v1_replacement', 2),
          minor: field(os[0], os[1], 'os_v2_replacement', 3),
          patch: field(os[0], os[1], 'os_v3_replacement', 4),
          patch_minor: field(os[0], os[1], 'os_v4_replacement', 5),
        }
      : { family: null, major: null, minor: null, patch: null, patch_minor: null },
    device: device
      ? {
          family: unknown(field(device[0], device[1], 'device_replacement', 1)),
          brand: device[0].brand_replacement === undefined ? null : field(device[0], device[1], 'brand_replacement', 0),
          model: field(device[0], device[1], 'model_replacement', 1),
        }
      : { family: null, brand: null, model: null },
  };
}
