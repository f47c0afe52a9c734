// A constant strftime format as the item program that the stdlib's `strftime_utc` runs (stdlib-as/strftime.ts),
// so that `format_timestamp` in UTC needs no host call. Layout, one entry after another:
//   0 len text      literal bytes (len ≤ 255)
//   1 field pad width   a numeric field (index in NUMERIC_FIELDS; width 0: never padded, the Unix timestamp)
//   2 name          a month or weekday name or am/pm (index in NAMES)
//   3 digits dot    fractional seconds: 3, 6 or 9 digits, 0 for chrono's shortest exact; dot 1 for a `.`
// In UTC the offset is 0 and the zone is "UTC", so those items are literal text here.

import { Pad, strftimeItems, WIDTH, type Fixed, type Item, type Numeric } from '../../abi/strftime-items.js';

const enum Op { Literal, Numeric, Name, Fraction }

/** Field indexes as stdlib-as/strftime.ts's `Field`. */
const NUMERIC_FIELDS: readonly Numeric[] = [
  'year', 'yearDiv100', 'yearMod100', 'isoYear', 'isoYearMod100', 'month', 'day', 'weekFromSun', 'weekFromMon',
  'isoWeek', 'numDaysFromSun', 'weekdayFromMon', 'ordinal', 'hour', 'hour12', 'minute', 'second', 'nanosecond',
  'timestamp',
];

/** Name indexes as stdlib-as/strftime.ts's `Name`. */
const NAMES: readonly Fixed[] = ['shortMonthName', 'longMonthName', 'shortWeekdayName', 'longWeekdayName', 'lowerAmPm', 'upperAmPm'];

/** Fixed items whose text in UTC does not depend on the instant (runtime/strftime.ts's formatting at offset 0). */
const UTC_TEXT: Partial<Record<Fixed, string>> = {
  zoneName: 'UTC', offset: '+0000', offsetColon: '+00:00', offsetDoubleColon: '+00:00:00', offsetTripleColon: '+00',
};

const FRACTIONS: Partial<Record<Fixed, [digits: number, dot: boolean]>> = {
  fraction: [0, true], fraction3: [3, true], fraction6: [6, true], fraction9: [9, true],
  digits3: [3, false], digits6: [6, false], digits9: [9, false],
};

/** The item program of `format` in UTC; undefined for a format the JS function rejects (its error says why). */
export function utcFormatProgram(format: string): Uint8Array | undefined {
  const out: number[] = [];
  const literal = (text: string) => {
    for (const bytes of chunks(Buffer.from(text, 'utf8'), 255)) out.push(Op.Literal, bytes.length, ...bytes);
  };
  const numeric = (field: Numeric, pad: Pad) => {
    const width = WIDTH[field];
    out.push(Op.Numeric, NUMERIC_FIELDS.indexOf(field), pad, width === Infinity ? 0 : width);
  };
  const emit = (item: Item): boolean => {
    switch (item.kind) {
      case 'literal':
      case 'space':
        literal(item.text);
        return true;
      case 'numeric':
        numeric(item.field, item.pad);
        return true;
      case 'fixed':
        return emitFixed(item.fixed);
      case 'error':
        return false;
    }
  };
  const emitFixed = (fixed: Fixed): boolean => {
    const text = UTC_TEXT[fixed];
    const fraction = FRACTIONS[fixed];
    if (text !== undefined) literal(text);
    else if (fraction !== undefined) out.push(Op.Fraction, fraction[0], fraction[1] ? 1 : 0);
    else if (NAMES.includes(fixed)) out.push(Op.Name, NAMES.indexOf(fixed));
    else if (fixed === 'rfc3339') {
      numeric('year', Pad.Zero);
      literal('-');
      numeric('month', Pad.Zero);
      literal('-');
      numeric('day', Pad.Zero);
      literal('T');
      numeric('hour', Pad.Zero);
      literal(':');
      numeric('minute', Pad.Zero);
      literal(':');
      numeric('second', Pad.Zero);
      out.push(Op.Fraction, 0, 1);
      literal('+00:00');
    } else return false; // `%#z` only parses
    return true;
  };
  return strftimeItems(format).every(emit) ? Uint8Array.from(out) : undefined;
}

function chunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}
