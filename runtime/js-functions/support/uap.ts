// uap-core's regexes.yaml (browser, OS and device rules), read on first use, applied as the reference
// implementations do: the first matching rule wins; `$N` in replacements is the Nth group. The rules run on
// the linear-time regex engine, each compiled when a scan first reaches it; a scan tests (RE2's DFA, no
// groups) and takes the groups of the one rule that matches.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { library } from './library.js';
import { RustRegex, type RegexMatch } from '../../../abi/regex.js';

interface Rule {
  regex: string;
  regex_flag?: string;
  [replacement: string]: string | undefined;
}

interface CompiledRule {
  regex?: RustRegex;
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

/** The first rule that matches and its groups. */
function first(list: readonly CompiledRule[], ua: string): [Rule, RegexMatch] | undefined {
  for (const entry of list) {
    const regex = (entry.regex ??= new RustRegex(`${entry.rule.regex_flag === 'i' ? '(?i)' : ''}${entry.rule.regex}`));
    if (regex.test(ua)) return [entry.rule, regex.exec(ua)!];
  }
  return undefined;
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
  const browser = first(rules.browser, ua);
  const os = first(rules.os, ua);
  const device = first(rules.device, ua);
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
