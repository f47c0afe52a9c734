// A growable byte buffer in the arena, for encoders and functions that build strings.

import { alloc, Value, newBytes, copyMemory, trapWith } from './value';
import { TrapCause } from '../abi/wire/batch';

/** Buffer state lives in a 12-byte arena record: data address, length, capacity. */
export type Buffer = usize;

export function bufferNew(capacity: usize): Buffer {
  const b = alloc(12);
  const cap: usize = capacity < 16 ? 16 : capacity;
  store<u32>(b, <u32>alloc(cap));
  store<u32>(b, 0, 4);
  store<u32>(b, <u32>cap, 8);
  return b;
}

// @ts-ignore: decorator
@inline export function bufferData(b: Buffer): usize {
  return <usize>load<u32>(b);
}
// @ts-ignore: decorator
@inline export function bufferLength(b: Buffer): usize {
  return <usize>load<u32>(b, 4);
}

/** Makes room for `n` more bytes; returns the address where they go (the length already counts them). */
// @ts-ignore: decorator
@inline export function bufferReserve(b: Buffer, n: usize): usize {
  const len = bufferLength(b);
  // Compared as a difference (the capacity is never below the length): `len + n` may wrap.
  if (n > <usize>load<u32>(b, 8) - len) bufferGrow(b, <u64>len + <u64>n);
  store<u32>(b, <u32>(len + n), 4);
  return bufferData(b) + len;
}

/** Moves the content to a larger block holding at least `needed` bytes. */
function bufferGrow(b: Buffer, needed: u64): void {
  if (needed > <u64>u32.MAX_VALUE) trapWith(TrapCause.AddressSpace);
  let grown = (<u64>load<u32>(b, 8)) << 1;
  if (grown < needed) grown = needed;
  if (grown > <u64>u32.MAX_VALUE) grown = needed;
  const data = alloc(<usize>grown);
  memory.copy(data, bufferData(b), bufferLength(b));
  store<u32>(b, <u32>data);
  store<u32>(b, <u32>grown, 8);
}

// @ts-ignore: decorator
@inline export function bufferByte(b: Buffer, byte: u8): void {
  store<u8>(bufferReserve(b, 1), byte);
}

export function bufferBytes(b: Buffer, ptr: usize, len: usize): void {
  copyMemory(bufferReserve(b, len), ptr, len);
}

/** Appends an ASCII string literal. */
export function bufferAscii(b: Buffer, text: string): void {
  const n = <usize>text.length;
  const out = bufferReserve(b, n);
  const src = changetype<usize>(text);
  for (let i: usize = 0; i < n; i++) store<u8>(out + i, <u8>load<u16>(src + (i << 1)));
}

/** Drops bytes after `len` (to undo a partial write). */
export function bufferTruncate(b: Buffer, len: usize): void {
  store<u32>(b, <u32>len, 4);
}

/** The content as a byte string value (shares the buffer's memory). */
export function bufferToBytes(b: Buffer): Value {
  return newBytes(bufferData(b), bufferLength(b));
}

/** `"`, the bytes, `"` with one reservation: a string with nothing to escape, the common case of writers. */
export function bufferQuoted(b: Buffer, ptr: usize, len: usize): void {
  const out = bufferReserve(b, len + 2);
  store<u8>(out, 0x22);
  copyMemory(out + 1, ptr, len);
  store<u8>(out + len + 1, 0x22);
}
