// IP address text as Rust's `Ipv4Addr`/`Ipv6Addr` parsers accept it (std::net): dotted quads without
// leading zeros; eight hex groups with one optional `::` and an optional embedded IPv4 tail.

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
  if (c >= 0x30 && c <= 0x39) return <i32>c - 0x30;
  const lower = <i32>(c | 0x20);
  return radix == 16 && lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Count of groups read into `groups` (u16 slots, at most `limit`); bit 8 set when an IPv4 tail ended them. */
function readGroups(groups: usize, limit: u32): u32 {
  for (let i: u32 = 0; i < limit; i++) {
    const start = at;
    const separated = i == 0 || readChar(0x3a);
    // An embedded IPv4 address needs two group slots.
    if (separated && i + 1 < limit && readIpv4(GROUP_SCRATCH)) {
      store<u16>(groups + (<usize>i << 1), (<u16>load<u8>(GROUP_SCRATCH) << 8) | load<u8>(GROUP_SCRATCH, 1));
      store<u16>(groups + (<usize>i << 1) + 2, (<u16>load<u8>(GROUP_SCRATCH, 2) << 8) | load<u8>(GROUP_SCRATCH, 3));
      return (i + 2) | 0x100;
    }
    const group = separated ? readHexGroup() : -1;
    if (group < 0) {
      at = start;
      return i;
    }
    store<u16>(groups + (<usize>i << 1), <u16>group);
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
    memory.copy(HEAD + ((8 - <usize>tailSize) << 1), TAIL, <usize>tailSize << 1);
  }
  for (let i: usize = 0; i < 8; i++) {
    const group = load<u16>(HEAD + (i << 1));
    store<u8>(out + (i << 1), <u8>(group >> 8));
    store<u8>(out + (i << 1) + 1, <u8>group);
  }
  return true;
}
