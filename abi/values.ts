// Remap values on the JS side (the mapping of ../shared/conformance/README.md): integer ↔ bigint,
// float ↔ number, string ↔ string (Uint8Array when not valid UTF-8), timestamp ↔ Timestamp,
// regex ↔ Regex, null, boolean, array ↔ Array, object ↔ plain object.

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

/** A point in time, in nanoseconds since the Unix epoch (UTC). */
/** The instants an i64 count of nanoseconds since the epoch covers: what a remap timestamp can hold. */
export const TIMESTAMP_RANGE = '1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z';

export class Timestamp {
  constructor(readonly nanos: bigint) {}

  static fromDate(date: Date): Timestamp {
    return new Timestamp(BigInt(date.getTime()) * 1_000_000n);
  }

  toDate(): Date {
    return new Date(Number(this.nanos / 1_000_000n) - (this.nanos % 1_000_000n < 0n ? 1 : 0));
  }

  /** RFC 3339 in UTC as VRL prints it: 0, 3, 6 or 9 fractional digits, `Z`. */
  toString(): string {
    const second = floorDiv(this.nanos, 1_000_000_000n);
    const fraction = this.nanos - second * 1_000_000_000n;
    const date = new Date(Number(second) * 1000).toISOString().slice(0, 19);
    if (fraction === 0n) return `${date}Z`;
    const digits = fraction.toString().padStart(9, '0');
    const width = digits.endsWith('000000') ? 3 : digits.endsWith('000') ? 6 : 9;
    return `${date}.${digits.slice(0, width)}Z`;
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
