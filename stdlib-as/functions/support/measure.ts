// Shared by `parse_bytes` and `parse_duration`: the `<number><optional space><unit>` quantities VRL reads
// with `(?P<value>[0-9]*\.?[0-9]+)\s?(?P<unit>…)`, and units looked up by name in a table.

import { Value } from '../../value';
import { fail } from '../../error';
import { bufferNew, bufferAscii, bufferBytes, bufferData, bufferLength } from '../../buffer';
import { parseFloatBytes } from '../../codec/number';
import { equalsAscii } from '../../text';

/** Set by `scanQuantity`: the number, and where its unit starts and ends. */
export let quantity: f64 = 0;
export let unitStart: usize = 0;
export let unitEnd: usize = 0;

/** Whether `c` is a letter of a unit: ASCII letters, and `µ` (U+00B5, two bytes) when `micro` is set. */
function unitCharLength(at: usize, end: usize, micro: bool): usize {
  const c = <u32>load<u8>(at);
  if ((c | 0x20) - 0x61 < 26) return 1;
  if (micro && c == 0xc2 && at + 1 < end && load<u8>(at, 1) == 0xb5) return 2;
  return 0;
}

/**
 * Reads `[0-9]*\.?[0-9]+`, one optional whitespace byte, then 1 to `maxUnit` unit letters starting at
 * `at`. Returns the end of the match, or 0 when there is none there.
 */
export function scanQuantity(at: usize, end: usize, maxUnit: i32, micro: bool): usize {
  const start = at;
  while (at < end && <u32>load<u8>(at) - 0x30 < 10) at++;
  if (at < end && load<u8>(at) == 0x2e) {
    const point = at++;
    while (at < end && <u32>load<u8>(at) - 0x30 < 10) at++;
    if (at == point + 1) at = point; // `[0-9]+` must follow a point
  }
  if (at == start || load<u8>(at - 1) == 0x2e) return 0;
  quantity = parseFloatBytes(start, at - start);
  const c = at < end ? <u32>load<u8>(at) : 0;
  if (c == 0x20 || c - 9 < 5) at++;
  unitStart = at;
  for (let n = 0; n < maxUnit && at < end; n++) {
    const length = unitCharLength(at, end, micro);
    if (length == 0) break;
    at += length;
  }
  // The regex backtracks over the optional space when no unit follows it: no unit means no match either way.
  unitEnd = at;
  return at > unitStart ? at : 0;
}

/** Index of the unit named by the bytes in `names`, or -1. */
export function unitIndex(ptr: usize, len: usize, names: StaticArray<string>): i32 {
  for (let i = 0; i < names.length; i++) if (equalsAscii(ptr, len, unchecked(names[i]))) return i;
  return -1;
}

/** Fails with `prefix`, the bytes, and a closing quote (`unknown unit format: 'xB'`). */
export function failQuoted(prefix: string, ptr: usize, len: usize): Value {
  const b = bufferNew(len + 32);
  bufferAscii(b, prefix);
  bufferBytes(b, ptr, len);
  bufferAscii(b, "'");
  return fail(bufferData(b), bufferLength(b));
}
