// The `date("pattern"[, "timezone"])` matcher of Datadog grok (parse_groks): a Joda-style date pattern
// (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`) matches the text, which becomes an integer: milliseconds since the Unix
// epoch. A zone in the text wins over the matcher's, which defaults to UTC; missing date parts are those
// of 1970-01-01 (`HH:mm:ss` gives the milliseconds since midnight), as in Datadog's and VRL's examples.

import { offsetOfLocal, parseTimeZone, UTC, type TimeZone } from '../../time-zones.js';

export interface DateMatcher {
  /** Matches the text, without groups: it goes into the grok pattern. */
  pattern: string;
  /** The milliseconds the matched text stands for, or undefined when it is no valid date. */
  parse(text: string): bigint | undefined;
}

type Part =
  | 'year'
  | 'year2'
  | 'month'
  | 'monthName'
  | 'day'
  | 'dayOfYear'
  | 'hour'
  | 'hour12'
  | 'hour0to11'
  | 'hour1to24'
  | 'minute'
  | 'second'
  | 'fraction'
  | 'halfday'
  | 'offset'
  | 'zone'
  | 'ignored';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ZONE_NAME = String.raw`[A-Za-z][\w+-]*(?:/[\w+-]+)*`;
const NUMBER = (letters: number) => (letters === 1 ? String.raw`\d{1,2}` : String.raw`\d{${letters}}`);

/** A run of one pattern letter: its regex and the part it gives, or undefined for a letter not supported. */
function token(letter: string, count: number): [string, Part] | undefined {
  switch (letter) {
    case 'y':
    case 'Y':
    case 'u':
      return count === 2 ? [String.raw`\d{2}`, 'year2'] : [String.raw`\d{4}`, 'year'];
    case 'M':
      return count >= 3 ? [count === 3 ? '[A-Za-z]{3}' : '[A-Za-z]+', 'monthName'] : [NUMBER(count), 'month'];
    case 'd':
      return [NUMBER(count), 'day'];
    case 'D':
      return [String.raw`\d{1,3}`, 'dayOfYear'];
    case 'H':
      return [NUMBER(count), 'hour'];
    case 'h':
      return [NUMBER(count), 'hour12'];
    case 'K':
      return [NUMBER(count), 'hour0to11'];
    case 'k':
      return [NUMBER(count), 'hour1to24'];
    case 'm':
      return [NUMBER(count), 'minute'];
    case 's':
      return [NUMBER(count), 'second'];
    case 'S':
      return [String.raw`\d{1,9}`, 'fraction'];
    case 'a':
      return ['[AaPp][Mm]', 'halfday'];
    // The day of the week is read but not checked against the date.
    case 'E':
      return [count === 3 ? '[A-Za-z]{3}' : '[A-Za-z]+', 'ignored'];
    case 'Z':
      return count >= 3 ? [ZONE_NAME, 'zone'] : [String.raw`Z|[+-]\d{2}(?::?\d{2})?`, 'offset'];
    case 'z':
      return [ZONE_NAME, 'zone'];
    default:
      return undefined;
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The matcher for `format` in `timezone` (an IANA name, `UTC+5`, `+3`, `-03:30`); throws the reason it has none. */
export function dateMatcher(format: string, timezone?: string): DateMatcher {
  const zone = timezone === undefined ? UTC : matcherZone(timezone);
  if (zone === undefined) throw new Error(`invalid timezone "${timezone}" in date matcher`);
  // Literal text, and the letters' regexes: groups for parsing, plain in the grok pattern.
  const pieces: Array<string | { regex: string }> = [];
  const parts: Part[] = [];
  for (let i = 0; i < format.length; ) {
    const c = format[i]!;
    if (/[A-Za-z]/.test(c)) {
      let end = i;
      while (format[end] === c) end++;
      const found = token(c, end - i);
      if (!found) throw new Error(`unsupported letter "${c}" in date format "${format}"`);
      pieces.push({ regex: found[0] });
      parts.push(found[1]);
      i = end;
    } else if (c === "'") {
      // Quoted text is literal; two quotes are one.
      const close = format.indexOf("'", i + 1);
      const literal = close === i + 1 ? "'" : format.slice(i + 1, close < 0 ? format.length : close);
      pieces.push(escapeRegex(literal));
      i = close < 0 ? format.length : close + 1;
    } else {
      pieces.push(escapeRegex(c));
      i++;
    }
  }
  const join = (group: string) => pieces.map((p) => (typeof p === 'string' ? p : `${group}${p.regex})`)).join('');
  const whole = new RegExp(`^${join('(')}$`);
  return {
    pattern: join('(?:'),
    parse(text) {
      const m = whole.exec(text);
      return m ? toMillis(parts, m.slice(1), zone) : undefined;
    },
  };
}

/** The matcher's zone argument: an IANA name, or a fixed offset with or without `UTC`/`GMT` before it. */
function matcherZone(name: string): TimeZone | undefined {
  const offset = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(name);
  if (offset) {
    const seconds = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 3600 + Number(offset[3] ?? 0) * 60);
    return { offsetAt: () => seconds, abbreviation: () => name };
  }
  return name === '' || name === 'local' ? undefined : parseTimeZone(name);
}

function toMillis(parts: readonly Part[], values: readonly string[], defaultZone: TimeZone): bigint | undefined {
  let year = 1970,
    month = 1,
    day = 1,
    hour = 0,
    minute = 0,
    second = 0,
    millis = 0;
  let pm: boolean | undefined;
  let hour12: number | undefined;
  let offset: number | undefined;
  let zone = defaultZone;
  for (const [i, part] of parts.entries()) {
    const text = values[i]!;
    const n = Number(text);
    switch (part) {
      case 'year':
        year = n;
        break;
      // chrono's `%y`: 69-99 are 1969-1999, the others 2000-2068.
      case 'year2':
        year = n >= 69 ? 1900 + n : 2000 + n;
        break;
      case 'month':
        month = n;
        break;
      case 'monthName': {
        month = MONTHS.findIndex((name) => text.toLowerCase().startsWith(name)) + 1;
        if (month === 0) return undefined;
        break;
      }
      case 'day':
        day = n;
        break;
      case 'dayOfYear':
        month = 1;
        day = n;
        break;
      case 'hour':
        hour = n;
        break;
      case 'hour12':
        hour12 = n % 12;
        if (n < 1 || n > 12) return undefined;
        break;
      case 'hour0to11':
        hour12 = n;
        if (n > 11) return undefined;
        break;
      case 'hour1to24':
        hour = n % 24;
        if (n < 1 || n > 24) return undefined;
        break;
      case 'minute':
        minute = n;
        break;
      case 'second':
        second = n;
        break;
      case 'fraction':
        millis = Number(text.padEnd(3, '0').slice(0, 3));
        break;
      case 'halfday':
        pm = text.toLowerCase() === 'pm';
        break;
      case 'offset':
        offset = offsetSeconds(text);
        break;
      case 'zone': {
        const named = parseTimeZone(text);
        if (named === undefined || text === 'local') return undefined;
        zone = named;
        break;
      }
      case 'ignored':
        break;
    }
  }
  if (hour12 !== undefined) hour = hour12 + (pm ? 12 : 0);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // A day past the month's (or year's) end rolls over: it is no date.
  if (parts.includes('dayOfYear') ? date.getUTCFullYear() !== year : date.getUTCMonth() !== month - 1) return undefined;
  const local = date.getTime() / 1000 + hour * 3600 + minute * 60 + second;
  const utc = local - (offset ?? offsetOfLocal(zone, local));
  return BigInt(utc) * 1000n + BigInt(millis);
}

/** `Z`, `+hh`, `+hhmm` or `+hh:mm` as seconds east of UTC. */
function offsetSeconds(text: string): number {
  if (text === 'Z') return 0;
  const digits = text.slice(1).replace(':', '');
  const seconds = Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2) || 0) * 60;
  return text[0] === '-' ? -seconds : seconds;
}
