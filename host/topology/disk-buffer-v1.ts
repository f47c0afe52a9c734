// Disk buffer records of version 1 hold batches of ABI version 5, whose timestamps were i64 nanoseconds
// (8 bytes) where ABI version 6 has i64 seconds and u32 nanoseconds (12 bytes, docs/abi.md §1). Read back,
// such a batch is rewritten in the current layout, so that what was buffered before an upgrade is delivered
// as it was written, never misread.

import { ABI_VERSION, BATCH_HEADER_SIZE, BATCH_MAGIC } from '../../abi/wire/batch.js';
import { Wire } from '../../abi/wire/values.js';

/** The ABI version of the batches in version 1 records. */
const V1_ABI_VERSION = 5;

/** The batch of a version 1 record in the current layout; undefined when it is not an ABI version 5 batch. */
export function upgradeV1Batch(batch: Uint8Array): Uint8Array | undefined {
  const input = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  if (batch.byteLength < BATCH_HEADER_SIZE || input.getUint32(0, true) !== BATCH_MAGIC) return undefined;
  if (input.getUint16(4, true) !== V1_ABI_VERSION) return undefined;
  const count = input.getUint32(8, true);
  // Each timestamp grows by 4 bytes, and each takes 9 bytes at least: 13/9 of the size is always enough.
  const out = new Uint8Array(Math.ceil((batch.byteLength * 13) / 9) + BATCH_HEADER_SIZE);
  const output = new DataView(out.buffer);
  out.set(batch.subarray(0, BATCH_HEADER_SIZE));
  output.setUint16(4, ABI_VERSION, true);
  let from = BATCH_HEADER_SIZE;
  let to = BATCH_HEADER_SIZE;
  try {
    for (let i = 0; i < count; i++) {
      const end = from + 4 + input.getUint32(from, true);
      const lengthAt = to;
      // kind, code, padding
      out.set(batch.subarray(from + 4, from + 8), to + 4);
      [from, to] = copyValue(input, from + 8, output, to + 8); // metadata
      [from, to] = copyValue(input, from, output, to); // event
      if (from !== end) return undefined;
      output.setUint32(lengthAt, to - lengthAt - 4, true);
    }
  } catch (error) {
    if (error instanceof RangeError) return undefined; // truncated or inconsistent
    throw error;
  }
  return from === batch.byteLength ? out.slice(0, to) : undefined;
}

/** Copies the value at `from` to `to` with its timestamps widened; returns the positions after both. */
function copyValue(input: DataView, from: number, output: DataView, to: number): [number, number] {
  const tag = input.getUint8(from);
  output.setUint8(to, tag);
  from++;
  to++;
  switch (tag) {
    case Wire.Null:
    case Wire.False:
    case Wire.True:
      return [from, to];
    case Wire.Int:
    case Wire.Float:
      output.setBigInt64(to, input.getBigInt64(from, true), true);
      return [from + 8, to + 8];
    case Wire.Timestamp: {
      const nanos = input.getBigInt64(from, true);
      const seconds = nanos / 1_000_000_000n - (nanos % 1_000_000_000n < 0n ? 1n : 0n);
      output.setBigInt64(to, seconds, true);
      output.setUint32(to + 8, Number(nanos - seconds * 1_000_000_000n), true);
      return [from + 8, to + 12];
    }
    case Wire.Bytes:
    case Wire.Regex: {
      const length = 4 + input.getUint32(from, true);
      copyBytes(input, from, output, to, length);
      return [from + length, to + length];
    }
    case Wire.Array:
    case Wire.Object: {
      const count = input.getUint32(from, true);
      const itemsEnd = from + 8 + input.getUint32(from + 4, true);
      output.setUint32(to, count, true);
      const itemsTo = to + 8;
      from += 8;
      to = itemsTo;
      for (let i = 0; i < count; i++) {
        if (tag === Wire.Object) {
          const key = 4 + input.getUint32(from, true);
          copyBytes(input, from, output, to, key);
          from += key;
          to += key;
        }
        [from, to] = copyValue(input, from, output, to);
      }
      if (from !== itemsEnd) throw new RangeError('container length');
      output.setUint32(itemsTo - 4, to - itemsTo, true);
      return [from, to];
    }
  }
  throw new RangeError(`bad value tag ${tag}`);
}

function copyBytes(input: DataView, from: number, output: DataView, to: number, length: number): void {
  const source = new Uint8Array(input.buffer, input.byteOffset + from, length);
  new Uint8Array(output.buffer, output.byteOffset + to, length).set(source);
}
