import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { library } from './support/library.js';
import { readPublicSuffixList, type SuffixRules } from '../../abi/public-suffix-list.js';

const tldts = library<typeof import('tldts')>('tldts');

/** Custom lists by path, read on first use (the path is a literal, checked when the program compiles). */
const customLists = new Map<string, SuffixRules>();

/**
 * `parse_etld(value, plus_parts = 0, psl)`: the public suffix of a domain name (the Mozilla list with its
 * private domains, through tldts; or the rules of the `psl` file), whether a rule knew it (otherwise it is
 * the last label), and the suffix with `plus_parts` more labels.
 */
export const parse_etld: JsFunction = ([value, plusParts, psl]) => {
  const domain = stringArg(value!);
  const plus = plusParts === null ? 0 : Number(plusParts as bigint);
  const found = psl === null ? defaultSuffix(domain) : customSuffix(domain, rulesOf(stringArg(psl!)));
  if (!found) throw new Error(`unable to determine eTLD for ${domain}`);
  const labels = domain.split('.');
  const take = Math.min(labels.length, found.etld.split('.').length + Math.max(0, plus));
  return { etld: found.etld, etld_plus: labels.slice(labels.length - take).join('.'), known_suffix: found.known };
};

interface Suffix {
  etld: string;
  known: boolean;
}

function defaultSuffix(domain: string): Suffix | undefined {
  const parsed = tldts().parse(domain, { allowPrivateDomains: true, extractHostname: false });
  if (!parsed.publicSuffix) return undefined;
  return { etld: parsed.publicSuffix, known: parsed.isIcann === true || parsed.isPrivate === true };
}

function rulesOf(path: string): SuffixRules {
  let rules = customLists.get(path);
  if (!rules) {
    try {
      rules = readPublicSuffixList(path);
    } catch (e) {
      throw new Error(`unable to read public suffix list ${path}: ${(e as Error).message}`);
    }
    customLists.set(path, rules);
  }
  return rules;
}

/** The PSL algorithm: the longest matching rule (an exception rule drops its first label); `*` by default. */
function customSuffix(domain: string, rules: SuffixRules): Suffix | undefined {
  const labels = domain.toLowerCase().split('.');
  if (labels.some((label) => label === '')) return undefined;
  for (let start = 0; start < labels.length; start++) {
    const candidate = labels.slice(start).join('.');
    if (rules.has(`!${candidate}`))
      return {
        etld: domain
          .split('.')
          .slice(start + 1)
          .join('.'),
        known: true,
      };
    const wildcard = ['*', ...labels.slice(start + 1)].join('.');
    if (rules.has(candidate) || (start + 1 < labels.length && rules.has(wildcard))) {
      return { etld: domain.split('.').slice(start).join('.'), known: true };
    }
  }
  return { etld: domain.slice(domain.lastIndexOf('.') + 1), known: false };
}
