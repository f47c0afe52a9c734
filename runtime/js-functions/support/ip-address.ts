// IP addresses in JS as Rust's std::net parses and displays them (the AssemblyScript side has
// stdlib-as/ip.ts): 4 or 16 bytes in network order.

import { isIPv4, isIPv6 } from 'node:net';

/** A strict dotted quad (no leading zeros) as 4 bytes, or undefined. */
function parseIpv4(text: string): Uint8Array | undefined {
  if (!isIPv4(text) || /(^|\.)0\d/.test(text)) return undefined;
  return Uint8Array.from(text.split('.').map(Number));
}

/** An IPv6 address (one optional `::`, an optional IPv4 tail, no zone) as 16 bytes, or undefined. */
function parseIpv6(text: string): Uint8Array | undefined {
  if (!isIPv6(text) || text.includes('%')) return undefined;
  // An IPv4 tail becomes its two groups.
  let groups = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    groups = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, rest] = groups.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const headGroups = parse(head);
  const restGroups = rest === undefined ? [] : parse(rest);
  const zeros = new Array<number>(Math.max(0, 8 - headGroups.length - restGroups.length)).fill(0);
  const all = rest === undefined ? headGroups : [...headGroups, ...zeros, ...restGroups];
  if (all.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

export function parseIp(text: string): Uint8Array | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

/** IPv4 addresses as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), IPv6 as is. */
export function toIpv6Bytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 16) return bytes;
  const out = new Uint8Array(16);
  out[10] = out[11] = 0xff;
  out.set(bytes, 12);
  return out;
}

/** Whether 16 bytes are an IPv4-mapped IPv6 address. */
export function isIpv4Mapped(bytes: Uint8Array): boolean {
  return bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** Rust's Display of an address: dotted quad, or RFC 5952 IPv6 (`::ffff:a.b.c.d` for IPv4-mapped). */
export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  if (isIpv4Mapped(bytes)) return `::ffff:${bytes.subarray(12).join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  // The longest run of two or more zero groups (the first of equal runs) becomes `::`.
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(':');
  return best < 0 ? hex(0, 8) : `${hex(0, best)}::${hex(best + bestLength, 8)}`;
}
