// Remap values on the JS side (the mapping of ../shared/conformance/README.md): integer ↔ bigint,
// float ↔ number, string ↔ string (Uint8Array when not valid UTF-8), timestamp ↔ Timestamp,
// regex ↔ Regex, null, boolean, array ↔ Array, object ↔ plain object.

import { MAX_TIMESTAMP_SECONDS, MIN_TIMESTAMP_SECONDS } from './wire/values.js';

export type RemapValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | Timestamp
  | Regex
  | RemapValue[]
  | { [key: string]: RemapValue };

/** chrono's `DateTime<Utc>` range (VRL's timestamps): MIN_TIMESTAMP_SECONDS to MAX_TIMESTAMP_SECONDS. */
export const TIMESTAMP_RANGE = '-262143-01-01T00:00:00Z to +262142-12-31T23:59:59.999999999Z';

const NANOS_PER_SECOND = 1_000_000_000n;

const MIN_NANOS = BigInt(MIN_TIMESTAMP_SECONDS) * NANOS_PER_SECOND;
const END_NANOS = (BigInt(MAX_TIMESTAMP_SECONDS) + 1n) * NANOS_PER_SECOND;

/** Whether `nanos` since the epoch is within chrono's range. */
export function timestampInRange(nanos: bigint): boolean {
  return nanos >= MIN_NANOS && nanos < END_NANOS;
}

/** A point in time, in nanoseconds since the Unix epoch (UTC). */
export class Timestamp {
  constructor(readonly nanos: bigint) {}

  static fromDate(date: Date): Timestamp {
    return new Timestamp(BigInt(date.getTime()) * 1_000_000n);
  }

  /** Whole seconds since the epoch, rounded down. */
  get seconds(): bigint {
    return floorDiv(this.nanos, NANOS_PER_SECOND);
  }

  /** Nanoseconds past `seconds`, 0 to 999,999,999. */
  get subsecondNanos(): number {
    return Number(((this.nanos % NANOS_PER_SECOND) + NANOS_PER_SECOND) % NANOS_PER_SECOND);
  }

  toDate(): Date {
    return new Date(Number(floorDiv(this.nanos, 1_000_000n)));
  }

  /**
   * RFC 3339 in UTC as VRL prints it (chrono's `to_rfc3339_opts(AutoSi, true)`): 0, 3, 6 or 9 fractional
   * digits, `Z`; a year outside 0–9999 gets a sign (`+10000`, `-0001`). A `Date` holds all of chrono's range.
   */
  toString(): string {
    const date = new Date(Number(this.seconds) * 1000);
    const year = date.getUTCFullYear();
    const yearText =
      year >= 0 && year <= 9999
        ? String(year).padStart(4, '0')
        : (year < 0 ? '-' : '+') + String(Math.abs(year)).padStart(4, '0');
    const fraction = this.subsecondNanos;
    const digits = String(fraction).padStart(9, '0');
    const width = digits.endsWith('000000') ? 3 : digits.endsWith('000') ? 6 : 9;
    return `${yearText}${date.toISOString().slice(-20, -5)}${fraction === 0 ? '' : `.${digits.slice(0, width)}`}Z`;
  }

  toJSON(): string {
    return this.toString();
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/** A regular expression in Rust regex syntax, as written in the program (flags inline). */
export class Regex {
  /**
   * `program`: the pattern compiled for the wasm engine (abi/regex-program.ts), which the compiler's
   * constants carry so that a module never compiles a literal pattern at run time.
   */
  constructor(
    readonly pattern: string,
    readonly program?: Uint8Array,
  ) {}

  /** Inline flags at the start of the pattern, e.g. `i` for `(?i)...`. */
  get flags(): string {
    return /^\(\?([imsxU]+)\)/.exec(this.pattern)?.[1] ?? '';
  }

  toString(): string {
    return this.pattern;
  }

  toJSON(): string {
    return this.pattern;
  }
}
