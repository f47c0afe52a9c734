// Numbers as text: integers, floats as VRL displays them and as serde_json writes them, and parsing.
// Floats are printed with their shortest round-trip digits (Ryu); parsing is exact (Clinger's fast path,
// then Eisel-Lemire, then the host's correctly rounded conversion for the rare cases both leave open).

import {
  Buffer,
  bufferByte,
  bufferBytes,
  bufferAscii,
  bufferReserve,
  bufferData,
  bufferLength,
  bufferTruncate,
} from '../buffer';
import { POW5_SPLIT, POW5_INV_SPLIT, POW10_128 } from './float-tables';

// @ts-ignore: decorator
@external("svc_js", "parse_float")
declare function jsParseFloat(ptr: usize, len: usize): f64;

// ---- integers ------------------------------------------------------------------------------------------

/** Scratch for digits written right to left (20 digits of a u64 plus a sign). */
const DIGITS = memory.data(24);

/** Writes the decimal digits of `n` right-aligned in DIGITS; returns the address of the first one. */
function digitsOf(n: u64): usize {
  let at = DIGITS + 24;
  do {
    const q = n / 10;
    store<u8>(--at, <u8>(48 + (n - q * 10)));
    n = q;
  } while (n != 0);
  return at;
}

export function writeInt(b: Buffer, n: i64): void {
  // The magnitude as u64 also covers i64.MIN.
  if (n < 0) bufferByte(b, 0x2d);
  const start = digitsOf(n < 0 ? <u64>-n : <u64>n);
  bufferBytes(b, start, DIGITS + 24 - start);
}

/** Writes a non-negative `n` zero-padded to at least `width` digits (`07`, `0042`). */
export function writeIntPadded(b: Buffer, n: i64, width: usize): void {
  // Fields of dates and times fill their width: written in place, in u32 arithmetic (the division by ten
  // becomes a multiplication), without the scratch digits or a fill.
  if (width - 1 < 9 && <u64>n < <u64>unchecked(POW10_U32[width])) {
    const out = bufferReserve(b, width);
    let rest = <u32>n;
    for (let at = out + width; at > out; ) {
      const q = rest / 10;
      store<u8>(--at, <u8>(48 + rest - q * 10));
      rest = q;
    }
    return;
  }
  const start = digitsOf(<u64>n);
  const len = DIGITS + 24 - start;
  if (len < width) memory.fill(bufferReserve(b, width - len), 0x30, width - len);
  bufferBytes(b, start, len);
}

const POW10_U32: StaticArray<u32> = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];

// ---- floats: shortest digits (Ryu, Ulf Adams 2018) -------------------------------------------------------

/** The shortest decimal `shortestDigits × 10^shortestExponent` that rounds back to the float. */
let shortestDigits: u64 = 0;
let shortestExponent: i32 = 0;

// @ts-ignore: decorator
@inline function pow5bits(e: i32): i32 {
  return ((e * 1217359) >>> 19) + 1;
}
// @ts-ignore: decorator
@inline function log10Pow2(e: i32): i32 {
  return (e * 78913) >>> 18;
}
// @ts-ignore: decorator
@inline function log10Pow5(e: i32): i32 {
  return (e * 732923) >>> 20;
}

function pow5Factor(v: u64): i32 {
  let count = 0;
  while (v % 5 == 0) {
    v /= 5;
    count++;
  }
  return count;
}

/** High 64 bits of the 128-bit product. */
function mulHigh(a: u64, b: u64): u64 {
  const aLo = a & 0xffffffff;
  const aHi = a >> 32;
  const bLo = b & 0xffffffff;
  const bHi = b >> 32;
  const lowLow = aLo * bLo;
  const lowHigh = aLo * bHi;
  const highLow = aHi * bLo;
  const middle = (lowLow >> 32) + (lowHigh & 0xffffffff) + (highLow & 0xffffffff);
  return aHi * bHi + (lowHigh >> 32) + (highLow >> 32) + (middle >> 32);
}

/** (m × table[2i] + m × table[2i+1] << 64) >> j, for 64 < j < 128. */
function mulShift(m: u64, table: StaticArray<u64>, i: i32, j: i32): u64 {
  const low = unchecked(table[i << 1]);
  const high = unchecked(table[(i << 1) + 1]);
  const high0 = mulHigh(m, low);
  const low1 = m * high;
  let high1 = mulHigh(m, high);
  const sum = high0 + low1;
  if (sum < high0) high1++;
  const shift = <u64>(j - 64);
  return (high1 << (64 - shift)) | (sum >> shift);
}

/** Sets shortestDigits/shortestExponent for a finite, non-zero `f` (its sign is ignored). */
function shortest(f: f64): void {
  const bits = reinterpret<u64>(f);
  const mantissaBits = bits & 0xfffffffffffff;
  const exponentBits = <i32>((bits >> 52) & 0x7ff);
  let e2: i32;
  let m2: u64;
  if (exponentBits == 0) {
    e2 = 1 - 1023 - 52 - 2;
    m2 = mantissaBits;
  } else {
    e2 = exponentBits - 1023 - 52 - 2;
    m2 = ((<u64>1) << 52) | mantissaBits;
  }
  const acceptBounds = (m2 & 1) == 0;
  const mv = m2 << 2;
  const mmShift: u64 = mantissaBits != 0 || exponentBits <= 1 ? 1 : 0;

  let vr: u64, vp: u64, vm: u64;
  let e10: i32;
  let vmIsTrailingZeros = false;
  let vrIsTrailingZeros = false;
  if (e2 >= 0) {
    const q = log10Pow2(e2) - (e2 > 3 ? 1 : 0);
    e10 = q;
    const j = -e2 + q + 125 + pow5bits(q) - 1;
    vr = mulShift(mv, POW5_INV_SPLIT, q, j);
    vp = mulShift(mv + 2, POW5_INV_SPLIT, q, j);
    vm = mulShift(mv - 1 - mmShift, POW5_INV_SPLIT, q, j);
    if (q <= 21) {
      if (mv % 5 == 0) vrIsTrailingZeros = pow5Factor(mv) >= q;
      else if (acceptBounds) vmIsTrailingZeros = pow5Factor(mv - 1 - mmShift) >= q;
      else if (pow5Factor(mv + 2) >= q) vp--;
    }
  } else {
    const q = log10Pow5(-e2) - (-e2 > 1 ? 1 : 0);
    e10 = q + e2;
    const i = -e2 - q;
    const j = q - (pow5bits(i) - 125);
    vr = mulShift(mv, POW5_SPLIT, i, j);
    vp = mulShift(mv + 2, POW5_SPLIT, i, j);
    vm = mulShift(mv - 1 - mmShift, POW5_SPLIT, i, j);
    if (q <= 1) {
      vrIsTrailingZeros = true;
      if (acceptBounds) vmIsTrailingZeros = mmShift == 1;
      else vp--;
    } else if (q < 63) {
      vrIsTrailingZeros = (mv & (((<u64>1) << q) - 1)) == 0;
    }
  }

  let removed: i32 = 0;
  let lastRemovedDigit: u64 = 0;
  let output: u64;
  if (vmIsTrailingZeros || vrIsTrailingZeros) {
    while (vp / 10 > vm / 10) {
      vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0;
      vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0;
      lastRemovedDigit = vr % 10;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      removed++;
    }
    if (vmIsTrailingZeros) {
      while (vm % 10 == 0) {
        vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0;
        lastRemovedDigit = vr % 10;
        vr /= 10;
        vp /= 10;
        vm /= 10;
        removed++;
      }
    }
    // Round half to even when the exact value ends in 5 followed by zeros.
    if (vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0) lastRemovedDigit = 4;
    output = vr + ((vr == vm && (!acceptBounds || !vmIsTrailingZeros)) || lastRemovedDigit >= 5 ? 1 : 0);
  } else {
    let roundUp = false;
    while (vp / 10 > vm / 10) {
      roundUp = vr % 10 >= 5;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      removed++;
    }
    output = vr + (vr == vm || roundUp ? 1 : 0);
  }
  shortestDigits = output;
  shortestExponent = e10 + removed;
}

/** Writes `count` ASCII zeros. */
function writeZeros(b: Buffer, count: i32): void {
  if (count > 0) memory.fill(bufferReserve(b, <usize>count), 0x30, <usize>count);
}

/** Writes digits[from, to) of the digit string at `digits`. */
// @ts-ignore: decorator
@inline function writeSlice(b: Buffer, digits: usize, from: i32, to: i32): void {
  bufferBytes(b, digits + <usize>from, <usize>(to - from));
}

/**
 * A float as VRL displays it: shortest digits, never an exponent, always a fractional part
 * (`12.0`, `0.0000001`, `-0.0`, `1000000000000000000000.0`); infinities as `inf` and `-inf`.
 */
export function writeFloat(b: Buffer, f: f64): void {
  if (reinterpret<i64>(f) < 0) bufferByte(b, 0x2d);
  if (f == 0) return bufferAscii(b, '0.0');
  if (!isFinite(f)) return bufferAscii(b, 'inf');
  shortest(f);
  const digits = digitsOf(shortestDigits);
  const count = <i32>(DIGITS + 24 - digits);
  const point = count + shortestExponent;
  if (point <= 0) {
    bufferAscii(b, '0.');
    writeZeros(b, -point);
    writeSlice(b, digits, 0, count);
  } else if (point >= count) {
    writeSlice(b, digits, 0, count);
    writeZeros(b, point - count);
    bufferAscii(b, '.0');
  } else {
    writeSlice(b, digits, 0, point);
    bufferByte(b, 0x2e);
    writeSlice(b, digits, point, count);
  }
}

/** Rust's `f64` Display: VRL's float text without the `.0` it adds to whole numbers. */
export function writeRustFloat(b: Buffer, f: f64): void {
  const start = bufferLength(b);
  writeFloat(b, f);
  const end = bufferLength(b);
  if (end - start >= 2 && load<u8>(bufferData(b) + end - 2) == 0x2e && load<u8>(bufferData(b) + end - 1) == 0x30) {
    bufferTruncate(b, end - 2);
  }
}

/**
 * A float as serde_json writes it (ryu's format): `1.0`, `0.001`, `1e16`, `1.5e-7`, `-0.0`; infinities as
 * `null` (JSON has none).
 */
export function writeFloatJson(b: Buffer, f: f64): void {
  if (!isFinite(f)) return bufferAscii(b, 'null');
  if (reinterpret<i64>(f) < 0) bufferByte(b, 0x2d);
  if (f == 0) return bufferAscii(b, '0.0');
  shortest(f);
  const digits = digitsOf(shortestDigits);
  const count = <i32>(DIGITS + 24 - digits);
  const point = count + shortestExponent; // 10^(point-1) <= |f| < 10^point
  if (shortestExponent >= 0 && point <= 16) {
    writeSlice(b, digits, 0, count);
    writeZeros(b, shortestExponent);
    bufferAscii(b, '.0');
  } else if (point > 0 && point <= 16) {
    writeSlice(b, digits, 0, point);
    bufferByte(b, 0x2e);
    writeSlice(b, digits, point, count);
  } else if (point > -5 && point <= 0) {
    bufferAscii(b, '0.');
    writeZeros(b, -point);
    writeSlice(b, digits, 0, count);
  } else {
    writeSlice(b, digits, 0, 1);
    if (count > 1) {
      bufferByte(b, 0x2e);
      writeSlice(b, digits, 1, count);
    }
    bufferByte(b, 0x65);
    writeInt(b, <i64>(point - 1));
  }
}

// ---- parsing -------------------------------------------------------------------------------------------

/** False after parseIntBytes/parseFloatBytes rejected their text. */
let parsed = true;

export function numberParsed(): bool {
  return parsed;
}

/** `[+-]?digits` as Rust's `i64::from_str` reads it; sets numberParsed() false on bad syntax or overflow. */
export function parseIntBytes(ptr: usize, len: usize): i64 {
  parsed = false;
  let i: usize = 0;
  const negative = len > 0 && load<u8>(ptr) == 0x2d;
  if (len > 0 && (negative || load<u8>(ptr) == 0x2b)) i = 1;
  if (i == len) return 0;
  // Eighteen digits cannot overflow: only a longer number checks each digit against the limit.
  const limit: u64 = negative ? <u64>i64.MIN_VALUE : <u64>i64.MAX_VALUE;
  const checked = len - i > 18;
  let n: u64 = 0;
  for (; i < len; i++) {
    const d = <u64>load<u8>(ptr + i) - 48;
    if (d > 9) return 0;
    if (checked && n > (limit - d) / 10) return 0;
    n = n * 10 + d;
  }
  parsed = true;
  return negative ? -(<i64>n) : <i64>n;
}

const EXACT_POW10: StaticArray<f64> = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/**
 * The float nearest to `mantissa × 10^exponent` (negated when `negative`). `truncated` says digits beyond
 * the mantissa's 19 were dropped; `text` (`len` bytes, a JS-parsable decimal) is the slow path's input.
 * Both the mantissa and 10^|exponent| are exact doubles on the fast path, so one IEEE operation rounds
 * correctly (Clinger).
 */
export function decimalToFloat(
  mantissa: u64,
  exponent: i32,
  truncated: bool,
  negative: bool,
  text: usize,
  len: usize,
): f64 {
  if (mantissa == 0) return negative ? -0.0 : 0.0;
  if (!truncated) {
    if (mantissa <= (<u64>1) << 53 && exponent >= -22 && exponent <= 22) {
      const m = <f64>mantissa;
      const f = exponent < 0 ? m / unchecked(EXACT_POW10[-exponent]) : m * unchecked(EXACT_POW10[exponent]);
      return negative ? -f : f;
    }
    const bits = eiselLemire(mantissa, exponent);
    if (bits != 0) return reinterpret<f64>(negative ? bits | ((<u64>1) << 63) : bits);
  }
  return jsParseFloat(text, len);
}

/**
 * Eisel-Lemire (as in Go's strconv): the bits of the float nearest to `mantissa × 10^exponent` for a
 * non-zero mantissa, or 0 when the 128-bit product cannot decide the rounding or the result is subnormal
 * or infinite.
 */
function eiselLemire(mantissa: u64, exponent: i32): u64 {
  if (exponent < -342 || exponent > 308) return 0;
  const zeros = clz<u64>(mantissa);
  const man = mantissa << zeros;
  const log2Pow10: i32 = (217706 * exponent) >> 16; // floor(exponent × log2(10)), in i32 (arithmetic shift)
  let exp2 = <u64>(log2Pow10 + 64 + 1023) - zeros;
  const index = (exponent + 342) << 1;
  const powLow = unchecked(POW10_128[index]);
  const powHigh = unchecked(POW10_128[index + 1]);
  let high = mulHigh(man, powHigh);
  let low = man * powHigh;
  if ((high & 0x1ff) == 0x1ff && low + man < man) {
    // The truncated power may be too small: widen with its low word.
    const lowHigh = mulHigh(man, powLow);
    const lowLow = man * powLow;
    let mergedHigh = high;
    const mergedLow = low + lowHigh;
    if (mergedLow < low) mergedHigh++;
    if ((mergedHigh & 0x1ff) == 0x1ff && mergedLow + 1 == 0 && lowLow + man < man) return 0;
    high = mergedHigh;
    low = mergedLow;
  }
  const top = high >> 63;
  let bits = high >> (top + 9);
  exp2 -= 1 ^ top;
  if (low == 0 && (high & 0x1ff) == 0 && (bits & 3) == 1) return 0; // halfway: needs the exact digits
  bits = (bits + (bits & 1)) >> 1;
  if (bits >> 53 > 0) {
    bits >>= 1;
    exp2++;
  }
  if (exp2 - 1 >= 0x7fe) return 0;
  return (exp2 << 52) | (bits & 0xfffffffffffff);
}

/** Mantissa scan state shared by the decimal readers: digits kept, dropped, and the decimal exponent. */
let scanMantissa: u64 = 0;
let scanTruncated = false;
let scanExponent: i32 = 0;

/**
 * Reads `[0-9]*` from `at` into the scan state; `fraction` digits lower the exponent. Returns the address
 * after the last digit.
 */
export function scanDigits(at: usize, end: usize, fraction: bool): usize {
  let mantissa = scanMantissa;
  let exponent = scanExponent;
  while (at < end) {
    const d = <u32>load<u8>(at) - 48;
    if (d > 9) break;
    if (mantissa < 1000000000000000000) {
      mantissa = mantissa * 10 + d;
      if (fraction) exponent--;
    } else {
      if (d != 0) scanTruncated = true;
      if (!fraction) exponent++;
    }
    at++;
  }
  scanMantissa = mantissa;
  scanExponent = exponent;
  return at;
}

/** Reads `[+-]?[0-9]+` from `at` and adds it to the scan exponent; returns the address after it or 0. */
export function scanExponentPart(at: usize, end: usize): usize {
  let negative = false;
  if (at < end && (load<u8>(at) == 0x2d || load<u8>(at) == 0x2b)) {
    negative = load<u8>(at) == 0x2d;
    at++;
  }
  const start = at;
  let e: i32 = 0;
  while (at < end) {
    const d = <i32>load<u8>(at) - 48;
    if (<u32>d > 9) break;
    if (e < 100000) e = e * 10 + d; // far beyond any float's range: the value saturates anyway
    at++;
  }
  if (at == start) return 0;
  scanExponent += negative ? -e : e;
  return at;
}

/** Starts a decimal scan. */
export function scanStart(): void {
  scanMantissa = 0;
  scanTruncated = false;
  scanExponent = 0;
}

/** The scanned decimal as a float; `text`/`len` is its full text (for the slow path). */
export function scanToFloat(negative: bool, text: usize, len: usize): f64 {
  return decimalToFloat(scanMantissa, scanExponent, scanTruncated, negative, text, len);
}

/** ASCII case-insensitive comparison of the bytes at `ptr` with a lower-case literal. */
function equalsIgnoreCase(ptr: usize, len: usize, lower: string): bool {
  if (<usize>lower.length != len) return false;
  for (let i: usize = 0; i < len; i++) {
    if ((load<u8>(ptr + i) | 0x20) != <u8>load<u16>(changetype<usize>(lower) + (i << 1))) return false;
  }
  return true;
}

/**
 * A float as Rust's `f64::from_str` reads it: `[+-]?` then `inf`, `infinity`, `nan` (any case) or
 * `digits[.digits][e[+-]digits]` (either side of the point may be empty, not both). Sets numberParsed()
 * false on bad syntax; `nan` gives NaN, which VRL callers must reject themselves.
 */
export function parseFloatBytes(ptr: usize, len: usize): f64 {
  parsed = false;
  const end = ptr + len;
  let at = ptr;
  const negative = len > 0 && load<u8>(at) == 0x2d;
  if (len > 0 && (negative || load<u8>(at) == 0x2b)) at++;
  const rest = end - at;
  if (equalsIgnoreCase(at, rest, 'inf') || equalsIgnoreCase(at, rest, 'infinity')) {
    parsed = true;
    return negative ? -Infinity : Infinity;
  }
  if (equalsIgnoreCase(at, rest, 'nan')) {
    parsed = true;
    return NaN;
  }
  scanStart();
  const intStart = at;
  at = scanDigits(at, end, false);
  let digitCount = at - intStart;
  if (at < end && load<u8>(at) == 0x2e) {
    const fractionStart = at + 1;
    at = scanDigits(fractionStart, end, true);
    digitCount += at - fractionStart;
  }
  if (digitCount == 0) return 0;
  if (at < end && (load<u8>(at) | 0x20) == 0x65) {
    at = scanExponentPart(at + 1, end);
    if (at == 0) return 0;
  }
  if (at != end) return 0;
  parsed = true;
  return scanToFloat(negative, ptr, len);
}
