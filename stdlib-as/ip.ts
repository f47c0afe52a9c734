// IP address text as Rust's `Ipv4Addr`/`Ipv6Addr` parsers accept it (std::net): dotted quads without
// leading zeros; eight hex groups with one optional `::` and an optional embedded IPv4 tail. And addresses
// written as Rust's `Display` writes them.

import { Buffer, bufferAscii, bufferByte } from './buffer';
import { writeInt } from './codec/number';
import { HEX_LOWER, hexValue } from './codec/hex';

/** Parser position and end, over the text being parsed. */
let at: usize = 0;
let end: usize = 0;

/** Parses all of the text as an IPv4 address into 4 bytes at `out`. */
export function parseIpv4(ptr: usize, len: usize, out: usize): bool {
  at = ptr;
  end = ptr + len;
  return readIpv4(out) && at == end;
}

/** Parses all of the text as an IPv6 address into 16 bytes (network order) at `out`. */
export function parseIpv6(ptr: usize, len: usize, out: usize): bool {
  at = ptr;
  end = ptr + len;
  return readIpv6(out) && at == end;
}

/** Parses all of the text as either address into `out` (room for 16 bytes): 4 or 16, or 0 when it is neither. */
export function parseIp(ptr: usize, len: usize, out: usize): i32 {
  if (parseIpv4(ptr, len, out)) return 4;
  return parseIpv6(ptr, len, out) ? 16 : 0;
}

/** Appends the dotted quad of the 4 bytes at `ip`. */
export function writeIpv4(b: Buffer, ip: usize): void {
  for (let i: usize = 0; i < 4; i++) {
    if (i > 0) bufferByte(b, 0x2e);
    writeInt(b, <i64>load<u8>(ip + i));
  }
}

/** Whether the 16 bytes at `ip` are an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`). */
export function isIpv4Mapped(ip: usize): bool {
  return load<u64>(ip) == 0 && load<u16>(ip + 8) == 0 && load<u16>(ip + 10) == 0xffff;
}

/**
 * Appends the 16 bytes at `ip` as Rust writes an `Ipv6Addr`: IPv4-mapped as `::ffff:a.b.c.d`, otherwise
 * lowercase groups without leading zeros, the first longest run of two or more zero groups as `::`.
 */
export function writeIpv6(b: Buffer, ip: usize): void {
  if (isIpv4Mapped(ip)) {
    bufferAscii(b, '::ffff:');
    writeIpv4(b, ip + 12);
    return;
  }
  let runStart = -1;
  let runLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && group(ip, j) == 0) j++;
    if (j - i > runLength) {
      runStart = i;
      runLength = j - i;
    }
    i = j == i ? i + 1 : j;
  }
  for (let i = 0; i < 8; i++) {
    if (i == runStart) {
      bufferByte(b, 0x3a);
      bufferByte(b, 0x3a);
      i += runLength - 1;
      continue;
    }
    if (i > 0 && i != runStart + runLength) bufferByte(b, 0x3a);
    writeHexGroup(b, group(ip, i));
  }
}

function group(ip: usize, i: i32): u32 {
  return ((<u32>load<u8>(ip + ((<usize>i) << 1))) << 8) | load<u8>(ip + ((<usize>i) << 1) + 1);
}

function writeHexGroup(b: Buffer, g: u32): void {
  let started = false;
  for (let shift: i32 = 12; shift >= 0; shift -= 4) {
    const digit = (g >> shift) & 15;
    if (digit == 0 && !started && shift > 0) continue;
    started = true;
    bufferByte(b, load<u8>(HEX_LOWER + digit));
  }
}

function readChar(c: u8): bool {
  if (at < end && load<u8>(at) == c) {
    at++;
    return true;
  }
  return false;
}

/** Four decimal octets; restores the position when they are not there. */
function readIpv4(out: usize): bool {
  const start = at;
  for (let i: usize = 0; i < 4; i++) {
    if (i > 0 && !readChar(0x2e)) break;
    const octet = readDecimalOctet();
    if (octet < 0) break;
    store<u8>(out + i, <u8>octet);
    if (i == 3) return true;
  }
  at = start;
  return false;
}

/** 1–3 decimal digits without a leading zero, at most 255; -1 (position restored) otherwise. */
function readDecimalOctet(): i32 {
  return readNumber(10, 3, false, 255);
}

/** 1–4 hex digits; -1 (position restored) otherwise. */
function readHexGroup(): i32 {
  return readNumber(16, 4, true, 0xffff);
}

/** Rust's `read_number`: every digit that follows counts, so too many digits fail rather than stop. */
function readNumber(radix: i32, maxDigits: i32, allowZeroPrefix: bool, max: i32): i32 {
  const start = at;
  const leadingZero = at < end && load<u8>(at) == 0x30;
  let value: i32 = 0;
  let digits: i32 = 0;
  while (at < end) {
    const d = digitValue(load<u8>(at), radix);
    if (d < 0) break;
    value = value * radix + d;
    digits++;
    at++;
    if (value > max || digits > maxDigits) break;
  }
  if (digits == 0 || digits > maxDigits || value > max || (!allowZeroPrefix && leadingZero && digits > 1)) {
    at = start;
    return -1;
  }
  return value;
}

function digitValue(c: u8, radix: i32): i32 {
  if (radix == 16) return hexValue(c);
  return c >= 0x30 && c <= 0x39 ? <i32>c - 0x30 : -1;
}

/** Count of groups read into `groups` (u16 slots, at most `limit`); bit 8 set when an IPv4 tail ended them. */
function readGroups(groups: usize, limit: u32): u32 {
  for (let i: u32 = 0; i < limit; i++) {
    const start = at;
    const separated = i == 0 || readChar(0x3a);
    // An embedded IPv4 address needs two group slots.
    if (separated && i + 1 < limit && readIpv4(GROUP_SCRATCH)) {
      store<u16>(groups + ((<usize>i) << 1), ((<u16>load<u8>(GROUP_SCRATCH)) << 8) | load<u8>(GROUP_SCRATCH, 1));
      store<u16>(groups + ((<usize>i) << 1) + 2, ((<u16>load<u8>(GROUP_SCRATCH, 2)) << 8) | load<u8>(GROUP_SCRATCH, 3));
      return (i + 2) | 0x100;
    }
    const group = separated ? readHexGroup() : -1;
    if (group < 0) {
      at = start;
      return i;
    }
    store<u16>(groups + ((<usize>i) << 1), <u16>group);
  }
  return limit;
}

const GROUP_SCRATCH = memory.data(4);
const HEAD = memory.data(16);
const TAIL = memory.data(14);

function readIpv6(out: usize): bool {
  memory.fill(HEAD, 0, 16);
  const head = readGroups(HEAD, 8);
  const headSize = head & 0xff;
  if (headSize < 8) {
    if (head & 0x100) return false; // an IPv4 part cannot come before `::`
    if (!readChar(0x3a) || !readChar(0x3a)) return false;
    const tailSize = readGroups(TAIL, 7 - headSize) & 0xff;
    memory.copy(HEAD + ((8 - <usize>tailSize) << 1), TAIL, (<usize>tailSize) << 1);
  }
  for (let i: usize = 0; i < 8; i++) {
    const group = load<u16>(HEAD + (i << 1));
    store<u8>(out + (i << 1), <u8>(group >> 8));
    store<u8>(out + (i << 1) + 1, <u8>group);
  }
  return true;
}
