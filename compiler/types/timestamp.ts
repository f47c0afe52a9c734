// Timestamp literals (`t'…'`): VRL parses them with chrono's RFC 3339 parser, whose four-digit years (with an
// offset, -0001-12-31 to 10000-01-01 in UTC) are all within the range of timestamps.

/** Groups: year, month, day, hour, minute, second, fraction (with its dot), zone. */
export const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Why a timestamp literal is not RFC 3339, or undefined. */
export function timestampProblem(text: string): string | undefined {
  const m = RFC3339.exec(text);
  if (!m) return /^[\d:.TtZz+ -]*$/.test(text) ? 'premature end of input' : 'input contains invalid characters';
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) {
    return 'input is out of range';
  }
  return undefined;
}

/** Nanoseconds since the epoch of a timestamp literal (matching RFC3339). */
export function timestampNanos(text: string): bigint {
  const m = RFC3339.exec(text);
  if (!m) throw new Error(`invalid timestamp literal ${text}`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const zone = m[8]!;
  const offsetMinutes = /z/i.test(zone)
    ? 0
    : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const fraction = BigInt((m[7] ?? '.').slice(1).padEnd(9, '0').slice(0, 9));
  return (BigInt(date.getTime() / 1000) - BigInt(offsetMinutes * 60)) * 1_000_000_000n + fraction;
}
