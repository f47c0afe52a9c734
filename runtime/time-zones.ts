// Time zones as VRL's `TimeZone` (the process's local zone or a named IANA zone), with their rules from
// Intl. Times here are seconds since the Unix epoch (numbers: every chrono date fits well within 2^53).

import { BoundedCache } from '../abi/bounded-cache.js';
import { formatOffset, instantsOfLocal, type TimeZone } from '../abi/time-zone.js';

export type { TimeZone };

/** UTC, what a timestamp is formatted in when no zone is given (chrono's `Utc`). */
export const UTC: TimeZone = {
  offsetAt: () => 0,
  abbreviation: () => 'UTC',
};

/** The tz database's GMT aliases of UTC (`GMT`, `Etc/GMT`, `Greenwich`), which it calls GMT. */
const GMT: TimeZone = {
  offsetAt: () => 0,
  abbreviation: () => 'GMT',
};

/**
 * VRL's `TimeZone::parse`: `""` and `"local"` are the process's zone, anything else must be an IANA name
 * with its exact case (chrono-tz rejects `utc`); undefined when it is none of these.
 */
export function parseTimeZone(name: string): TimeZone | undefined {
  if (name === '' || name === 'local') return localZone();
  let zone = namedZones.get(name);
  if (zone === undefined) {
    const resolved = intlZoneName(name);
    if (resolved === undefined) return undefined;
    zone = resolved !== 'UTC' ? new IntlZone(resolved, false) : /GMT|Greenwich/.test(name) ? GMT : UTC;
    namedZones.set(name, zone);
  }
  return zone;
}

/** Whether `name` is a time zone the remap functions read (`compile`'s `timezone` option). */
export function isTimeZone(name: string): boolean {
  return parseTimeZone(name) !== undefined;
}

/**
 * Seconds east of UTC at the local wall-clock time `localSeconds`: the earlier instant's when the time is
 * ambiguous, and in a DST gap the offset after the gap (the time moves forward by the gap's length).
 */
export function offsetOfLocal(zone: TimeZone, localSeconds: number): number {
  const instants = instantsOfLocal(zone, localSeconds);
  if (instants.length > 0) return localSeconds - instants[0]!;
  return zone.offsetAt(localSeconds - zone.offsetAt(localSeconds - DAY));
}

const DAY = 86_400;
const QUARTER_SECONDS = 900;
const OFFSET_CACHE_SIZE = 4096;
const namedZones = new Map<string, TimeZone>();
let local: TimeZone | undefined;

/** The process's zone (TZ): chrono's `Local`, whose `%Z` is the offset. */
function localZone(): TimeZone {
  local ??= new IntlZone(new Intl.DateTimeFormat().resolvedOptions().timeZone, true);
  return local;
}

/** The zone Intl resolves `name` to, when `name` is an IANA name as chrono-tz accepts it. */
function intlZoneName(name: string): string | undefined {
  if (/^[+-]/.test(name)) return undefined; // offsets are not zone names for chrono-tz
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  // Intl matches names without regard to case; chrono-tz does not. An alias resolves to another name.
  if (resolved.toLowerCase() === name.toLowerCase() && resolved !== name) return undefined;
  return resolved;
}

class IntlZone implements TimeZone {
  private readonly parts: Intl.DateTimeFormat;
  private readonly shortNames: Intl.DateTimeFormat;
  private readonly longNames: Intl.DateTimeFormat;
  /**
   * Offsets by quarter of an hour, NaN for a quarter a transition falls in, and within those by instant. A
   * zone's offset changes at most once in a quarter (the tz database's transitions are days apart), so a
   * quarter whose first and last seconds agree has that offset throughout: events seconds apart ask Intl
   * (~2 µs an instant) once per quarter, not once per second.
   */
  private readonly quarters = new BoundedCache<number, number>(OFFSET_CACHE_SIZE);
  private readonly offsets = new BoundedCache<number, number>(OFFSET_CACHE_SIZE);
  private readonly computeQuarter = (quarter: number) => {
    const first = this.offsetFromRules(quarter * QUARTER_SECONDS);
    return first === this.offsetFromRules(quarter * QUARTER_SECONDS + QUARTER_SECONDS - 1) ? first : Number.NaN;
  };
  private readonly computeOffset = (utcSeconds: number) => this.offsetFromRules(utcSeconds);

  constructor(
    name: string,
    private readonly offsetAsName: boolean,
  ) {
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.shortNames = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' });
    this.longNames = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'long' });
  }

  offsetAt(utcSeconds: number): number {
    const offset = this.quarters.get(Math.floor(utcSeconds / QUARTER_SECONDS), this.computeQuarter);
    return Number.isNaN(offset) ? this.offsets.get(utcSeconds, this.computeOffset) : offset;
  }

  private offsetFromRules(utcSeconds: number): number {
    const field: Record<string, string> = {};
    for (const part of this.parts.formatToParts(utcSeconds * 1000)) field[part.type] = part.value;
    const year = field.era === 'BC' ? 1 - Number(field.year) : Number(field.year);
    // Date.UTC maps years 0–99 to 1900–1999: build the date in 2000 and move it to its year.
    const date = new Date(
      Date.UTC(
        2000,
        Number(field.month) - 1,
        Number(field.day),
        Number(field.hour),
        Number(field.minute),
        Number(field.second),
      ),
    );
    date.setUTCFullYear(year);
    return date.getTime() / 1000 - utcSeconds;
  }

  /**
   * chrono-tz prints the tz database's abbreviation, which Intl does not know: the abbreviation of Intl's
   * English name (ABBREVIATIONS), else Intl's short name when it is alphabetic (EST, PDT), else the
   * database's numeric form (`+04`, `+0530`).
   */
  abbreviation(utcSeconds: number): string {
    const offset = this.offsetAt(utcSeconds);
    if (this.offsetAsName) return formatOffset(offset, true, true);
    // ICU names zones up to the year 9999 only: later, the same instant of an earlier 400-year Gregorian
    // cycle, which has the same dates and weekdays and so the same rules (the tz database's last ones).
    if (utcSeconds > LAST_NAMED_SECOND)
      utcSeconds -= Math.ceil((utcSeconds - LAST_NAMED_SECOND) / GREGORIAN_CYCLE_SECONDS) * GREGORIAN_CYCLE_SECONDS;
    const abbreviation = ABBREVIATIONS[zoneName(this.longNames, utcSeconds)];
    if (abbreviation !== undefined) return abbreviation;
    const short = zoneName(this.shortNames, utcSeconds);
    if (/^[A-Z]{2,5}$/.test(short)) return short;
    const minutes = Math.trunc(Math.abs(offset) / 60) % 60;
    return formatOffset(offset, minutes !== 0, false);
  }
}

/** 9999-12-01T00:00:00Z: ICU gives zone names up to the end of the year 9999. */
const LAST_NAMED_SECOND = 253_399_622_400;
const GREGORIAN_CYCLE_SECONDS = 146_097 * DAY;

function zoneName(format: Intl.DateTimeFormat, utcSeconds: number): string {
  return format.formatToParts(utcSeconds * 1000).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** tz database abbreviations by Intl's English zone name, where Intl's short name is `GMT+1`-like. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  'American Samoa Standard Time': 'SST',
  'Australian Central Daylight Time': 'ACDT',
  'Australian Central Standard Time': 'ACST',
  'Australian Eastern Daylight Time': 'AEDT',
  'Australian Eastern Standard Time': 'AEST',
  'Australian Western Standard Time': 'AWST',
  'British Summer Time': 'BST',
  'Central Africa Time': 'CAT',
  'Central European Standard Time': 'CET',
  'Central European Summer Time': 'CEST',
  'Central Indonesia Time': 'WITA',
  'Chamorro Standard Time': 'ChST',
  'China Standard Time': 'CST',
  'Cuba Daylight Time': 'CDT',
  'Cuba Standard Time': 'CST',
  'East Africa Time': 'EAT',
  'Eastern European Standard Time': 'EET',
  'Eastern European Summer Time': 'EEST',
  'Eastern Indonesia Time': 'WIT',
  'Greenwich Mean Time': 'GMT',
  'Hawaii-Aleutian Daylight Time': 'HDT',
  'Hawaii-Aleutian Standard Time': 'HST',
  'Hong Kong Standard Time': 'HKT',
  'India Standard Time': 'IST',
  'Irish Standard Time': 'IST',
  'Israel Daylight Time': 'IDT',
  'Israel Standard Time': 'IST',
  'Japan Standard Time': 'JST',
  'Korean Standard Time': 'KST',
  'Mexican Pacific Standard Time': 'MST',
  'Moscow Standard Time': 'MSK',
  'New Zealand Daylight Time': 'NZDT',
  'New Zealand Standard Time': 'NZST',
  'Newfoundland Daylight Time': 'NDT',
  'Newfoundland Standard Time': 'NST',
  'Pakistan Standard Time': 'PKT',
  'Philippine Standard Time': 'PST',
  'South Africa Standard Time': 'SAST',
  'Taiwan Standard Time': 'CST',
  'West Africa Time': 'WAT',
  'Western European Standard Time': 'WET',
  'Western European Summer Time': 'WEST',
  'Western Indonesia Time': 'WIB',
  'Yukon Time': 'MST',
};

/** A zone argument by name; VRL's error when it names no zone. */
export function namedTimeZone(name: string): TimeZone {
  const zone = parseTimeZone(name);
  if (zone === undefined) throw new Error(`unable to parse timezone: ${name}`);
  return zone;
}
