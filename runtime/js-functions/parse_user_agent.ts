// parse_user_agent(value, mode), as VRL combines its two parsers: `fast` is woothee; `reliable` is woothee,
// falling back to uap-core's rules field by field when woothee knows no browser or OS family; `enriched` is
// uap-core's rules with woothee filling in what they lack (versions as written, device category).

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';
import { BoundedCache } from '../../abi/bounded-cache.js';
import { parseWithUap } from './support/uap.js';
import { library } from './support/library.js';

interface WootheeResult {
  name: string;
  version: string;
  category: string;
  os: string;
  os_version: string;
}

const woothee = library<{ parse(ua: string): WootheeResult }>('woothee');

type Field = string | null;

const known = (text: string | undefined): Field =>
  text === undefined || text === '' || text === 'UNKNOWN' ? null : text;

function fast(ua: string) {
  const r = woothee().parse(ua);
  return {
    browser: { family: known(r.name), version: known(r.version) },
    os: { family: known(r.os), version: known(r.os_version) },
    device: { category: known(r.category) },
  };
}

/** Each field of `primary`, else the one of `fallback` of the same name. */
function or<T extends Record<string, Field>>(primary: T, fallback: Partial<Record<keyof T, Field>>): T {
  const out: Record<string, Field> = { ...primary };
  for (const key of Object.keys(primary)) out[key] = primary[key] ?? fallback[key] ?? null;
  return out as T;
}

const MODES: Readonly<Record<string, (ua: string) => RemapValue>> = {
  fast,
  reliable(ua) {
    const basic = fast(ua);
    if (basic.browser.family !== null && basic.os.family !== null) return basic;
    const slow = parseWithUap(ua);
    return {
      browser: or({ family: slow.browser.family, version: null }, basic.browser),
      os: or({ family: slow.os.family, version: null }, basic.os),
      device: basic.device,
    };
  },
  enriched(ua) {
    const slow = parseWithUap(ua);
    const basic = fast(ua);
    return {
      browser: or({ ...slow.browser, version: null }, basic.browser),
      os: or({ ...slow.os, version: null }, basic.os),
      device: or({ ...slow.device, category: null }, basic.device),
    };
  },
};

/** Results by mode and user agent: a stream's user agents repeat (a site's visitors use a few hundred
 * browsers), and a parse costs 2 µs (`fast`) to 200 µs (uap-core's rules). The results are only read. */
const parsed = new Map(Object.keys(MODES).map((name) => [name, new BoundedCache<string, RemapValue>(4096)]));

export const parse_user_agent: JsFunction = ([value, mode]) => {
  const name = mode === null || mode === undefined ? 'fast' : stringArg(mode);
  if (!Object.hasOwn(MODES, name)) throw new Error(`invalid mode: ${name}`);
  return parsed.get(name)!.get(stringArg(value!), MODES[name]!);
};
