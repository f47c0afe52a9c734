// chrono's StrftimeItems: a strftime format string as a list of items. The runtime formats and parses with
// them (abi/strftime.ts); abi/strftime-program.ts turns them into the item programs that the stdlib's
// formatter and parser run.

import { BoundedCache } from './bounded-cache.js';
import { Pad } from './wire/strftime-program.js';

export { Pad };

export type Numeric =
  | 'year'
  | 'yearDiv100'
  | 'yearMod100'
  | 'isoYear'
  | 'isoYearMod100'
  | 'month'
  | 'day'
  | 'weekFromSun'
  | 'weekFromMon'
  | 'isoWeek'
  | 'numDaysFromSun'
  | 'weekdayFromMon'
  | 'ordinal'
  | 'hour'
  | 'hour12'
  | 'minute'
  | 'second'
  | 'nanosecond'
  | 'timestamp';

export type Fixed =
  | 'shortMonthName'
  | 'longMonthName'
  | 'shortWeekdayName'
  | 'longWeekdayName'
  | 'lowerAmPm'
  | 'upperAmPm'
  | 'fraction'
  | 'fraction3'
  | 'fraction6'
  | 'fraction9'
  | 'digits3'
  | 'digits6'
  | 'digits9'
  | 'zoneName'
  | 'offset'
  | 'offsetColon'
  | 'offsetDoubleColon'
  | 'offsetTripleColon'
  | 'offsetPermissive'
  | 'rfc3339'
  | 'offsetZulu';

export type Item =
  | { kind: 'literal'; text: string }
  | { kind: 'space'; text: string }
  | { kind: 'numeric'; field: Numeric; pad: Pad }
  | { kind: 'fixed'; fixed: Fixed }
  | { kind: 'error' };

/** Digits read (parsing) and written (formatting, before padding) for each numeric field. */
export const WIDTH: Record<Numeric, number> = {
  year: 4,
  yearDiv100: 2,
  yearMod100: 2,
  isoYear: 4,
  isoYearMod100: 2,
  month: 2,
  day: 2,
  weekFromSun: 2,
  weekFromMon: 2,
  isoWeek: 2,
  numDaysFromSun: 1,
  weekdayFromMon: 1,
  ordinal: 3,
  hour: 2,
  hour12: 2,
  minute: 2,
  second: 2,
  nanosecond: 9,
  timestamp: Infinity,
};

const num = (field: Numeric, pad = Pad.Zero): Item => ({ kind: 'numeric', field, pad });
const fix = (fixed: Fixed): Item => ({ kind: 'fixed', fixed });
const lit = (text: string): Item => ({ kind: 'literal', text });
const space = (text: string): Item => ({ kind: 'space', text });
const ERROR: Item = { kind: 'error' };

const SPECIFIERS: Record<string, Item | Item[]> = {
  A: fix('longWeekdayName'),
  B: fix('longMonthName'),
  C: num('yearDiv100'),
  D: [num('month'), lit('/'), num('day'), lit('/'), num('yearMod100')],
  F: [num('year'), lit('-'), num('month'), lit('-'), num('day')],
  G: num('isoYear'),
  H: num('hour'),
  I: num('hour12'),
  M: num('minute'),
  P: fix('lowerAmPm'),
  R: [num('hour'), lit(':'), num('minute')],
  S: num('second'),
  T: [num('hour'), lit(':'), num('minute'), lit(':'), num('second')],
  U: num('weekFromSun'),
  V: num('isoWeek'),
  W: num('weekFromMon'),
  X: [num('hour'), lit(':'), num('minute'), lit(':'), num('second')],
  Y: num('year'),
  Z: fix('zoneName'),
  a: fix('shortWeekdayName'),
  b: fix('shortMonthName'),
  c: [
    fix('shortWeekdayName'),
    space(' '),
    fix('shortMonthName'),
    space(' '),
    num('day', Pad.Space),
    space(' '),
    num('hour'),
    lit(':'),
    num('minute'),
    lit(':'),
    num('second'),
    space(' '),
    num('year'),
  ],
  d: num('day'),
  e: num('day', Pad.Space),
  f: num('nanosecond'),
  g: num('isoYearMod100'),
  h: fix('shortMonthName'),
  j: num('ordinal'),
  k: num('hour', Pad.Space),
  l: num('hour12', Pad.Space),
  m: num('month'),
  n: space('\n'),
  p: fix('upperAmPm'),
  r: [num('hour12'), lit(':'), num('minute'), lit(':'), num('second'), space(' '), fix('upperAmPm')],
  s: num('timestamp', Pad.None),
  t: space('\t'),
  u: num('weekdayFromMon', Pad.None),
  v: [num('day', Pad.Space), lit('-'), fix('shortMonthName'), lit('-'), num('year')],
  w: num('numDaysFromSun', Pad.None),
  x: [num('month'), lit('/'), num('day'), lit('/'), num('yearMod100')],
  y: num('yearMod100'),
  z: fix('offset'),
  '+': fix('rfc3339'),
  '%': lit('%'),
};

/** After `%` and an optional `.`: the fraction specifiers (`%.3f`, `%3f`...). */
const FRACTIONS: Record<string, [Fixed, Fixed]> = {
  f: ['fraction', 'fraction'],
  '3f': ['fraction3', 'digits3'],
  '6f': ['fraction6', 'digits6'],
  '9f': ['fraction9', 'digits9'],
};

const PADS: Record<string, Pad> = { '-': Pad.None, '0': Pad.Zero, _: Pad.Space };

const isSpace = (c: string) => /\s/u.test(c);

/** Items of the formats seen so far: programs use a few formats, each on every event. */
const itemsCache = new BoundedCache<string, readonly Item[]>(256);

/** The items of a format string; an unknown or malformed specifier is an `error` item. */
export function strftimeItems(format: string): readonly Item[] {
  return itemsCache.get(format, parseFormat);
}

function parseFormat(format: string): Item[] {
  const items: Item[] = [];
  const chars = [...format];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c !== '%') {
      const start = i;
      const whitespace = isSpace(c);
      while (i < chars.length && chars[i] !== '%' && isSpace(chars[i]!) === whitespace) i++;
      const text = chars.slice(start, i).join('');
      items.push(whitespace ? space(text) : lit(text));
      continue;
    }
    i++;
    const pad = PADS[chars[i] ?? ''];
    if (pad !== undefined) i++;
    const [item, length] = specifier(chars, i);
    i += length;
    if (pad === undefined) items.push(...(Array.isArray(item) ? item : [item]));
    else items.push(!Array.isArray(item) && item.kind === 'numeric' ? num(item.field, pad) : ERROR);
  }
  return items;
}

/** The item of the specifier at `chars[i]` (after `%` and padding) and how many characters it spans. */
function specifier(chars: string[], i: number): [Item | Item[], number] {
  const c = chars[i];
  if (c === undefined) return [ERROR, 0];
  const rest = chars.slice(i + 1, i + 4).join('');
  switch (c) {
    case '#':
      return rest.startsWith('z') ? [fix('offsetPermissive'), 2] : [ERROR, 1];
    case ':':
      if (rest.startsWith('::z')) return [fix('offsetTripleColon'), 4];
      if (rest.startsWith(':z')) return [fix('offsetDoubleColon'), 3];
      return rest.startsWith('z') ? [fix('offsetColon'), 2] : [ERROR, 1];
    case '.': {
      const key = rest.startsWith('f') ? 'f' : rest.slice(0, 2);
      const fraction = FRACTIONS[key];
      return fraction ? [fix(fraction[0]), 1 + key.length] : [ERROR, 1];
    }
    case '3':
    case '6':
    case '9': {
      const fraction = FRACTIONS[c + rest.slice(0, 1)];
      return fraction ? [fix(fraction[1]), 2] : [ERROR, 1];
    }
  }
  return [SPECIFIERS[c] ?? ERROR, 1];
}

/** How `%+` reads (chrono's relaxed RFC 3339): the date, then `T`, `t` or nothing, then the time. */
export const RFC3339_DATE: readonly Item[] = [
  num('year'),
  space(''),
  lit('-'),
  num('month'),
  space(''),
  lit('-'),
  num('day'),
];
export const RFC3339_TIME: readonly Item[] = [
  num('hour'),
  space(''),
  lit(':'),
  num('minute'),
  space(''),
  lit(':'),
  num('second'),
  fix('fraction'),
  space(''),
  fix('offsetZulu'),
  space(''),
];

/** VRL's `format_has_zone`: parse_timestamp reads such a format's text as a fixed-offset time, else in a zone. */
export function formatHasZone(format: string): boolean {
  return ['%Z', '%z', '%:z', '%#z', '%+'].some((specifier) => format.includes(specifier));
}
