// What strftime needs of a time zone (abi/strftime.ts), and what it computes from one alone; the zones
// themselves, with their rules from Intl, are the runtime's (runtime/time-zones.ts). Times are seconds
// since the Unix epoch.

/** A time zone: its offset and `%Z` name at any instant. */
export interface TimeZone {
  /** Seconds east of UTC at the instant `utcSeconds`. */
  offsetAt(utcSeconds: number): number;
  /** What `%Z` prints at the instant `utcSeconds`. */
  abbreviation(utcSeconds: number): string;
}

/**
 * The instants (UTC seconds, ascending) whose wall-clock time in `zone` is `localSeconds`: none in a gap,
 * two in an overlap (chrono's `LocalResult`).
 */
export function instantsOfLocal(zone: TimeZone, localSeconds: number): number[] {
  const before = zone.offsetAt(localSeconds - DAY);
  const after = zone.offsetAt(localSeconds + DAY);
  const instants: number[] = [];
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = localSeconds - offset;
    if (zone.offsetAt(instant) === offset) instants.push(instant);
  }
  return instants.sort((a, b) => a - b);
}

const DAY = 86_400;

/** `+hh`, `+hhmm` or `+hh:mm` (plus `:ss` when `colon` and the offset has seconds). */
export function formatOffset(offset: number, withMinutes: boolean, colon: boolean): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const two = (n: number) => String(n).padStart(2, '0');
  let text = sign + two(Math.floor(abs / 3600));
  if (withMinutes) text += (colon ? ':' : '') + two(Math.floor(abs / 60) % 60);
  if (colon && abs % 60 !== 0) text += ':' + two(abs % 60);
  return text;
}
