// UTS #46 processing for encode_punycode/decode_punycode as the `idna` crate's defaults do it (nontransitional,
// no STD3 rules, no hyphen or DNS length checks; bidi and joiner rules checked), and its error display
// (`Errors { check_bidi }`), which tr46 does not give: the failing rule is found by turning rules off.

import { library } from './library.js';

const tr46 = library<typeof import('tr46')>('tr46');
const punycode = library<typeof import('punycode')>('punycode/punycode.js');

const VALIDATING = { checkBidi: true, checkJoiners: true } as const;

export type Direction = 'ascii' | 'unicode';

function process(
  direction: Direction,
  domain: string,
  options: { checkBidi?: boolean; checkJoiners?: boolean },
): { domain: string; error: boolean } {
  if (direction === 'unicode') return tr46().toUnicode(domain, options);
  const ascii = tr46().toASCII(domain, options);
  return ascii === null ? { domain, error: true } : { domain: ascii, error: false };
}

/** Which of idna's error flags a failing domain raises, as its `Display` writes them. */
function errorFlags(direction: Direction, domain: string): string {
  if (!process(direction, domain, { checkJoiners: true }).error) return 'Errors { check_bidi }';
  const badPunycode = domain.split('.').some((label) => {
    if (!/^xn--/i.test(label)) return false;
    try {
      punycode().decode(label.slice(4));
      return false;
    } catch {
      return true;
    }
  });
  return badPunycode ? 'Errors { punycode }' : 'Errors { disallowed_character }';
}

/**
 * Lower-case letters, digits, hyphens and dots, no label starting `xn--`: what UTS #46 leaves as it is both
 * ways with or without its checks (most domains a pipeline sees). tr46 maps them code point by code point
 * through its tables: ~10 µs for `www.example.com`.
 */
const PLAIN_ASCII_DOMAIN = /^(?!xn--)[a-z0-9-]*(?:\.(?!xn--)[a-z0-9-]*)*$/;

/** `domain` in ASCII or Unicode form; with `validate`, throws `prefix` + idna's error flags when a rule fails. */
export function idna(direction: Direction, domain: string, validate: boolean, prefix: string): string {
  if (PLAIN_ASCII_DOMAIN.test(domain)) return domain;
  if (!validate) return process(direction, domain, {}).domain;
  const result = process(direction, domain, VALIDATING);
  if (result.error) throw new Error(prefix + errorFlags(direction, domain));
  return result.domain;
}
