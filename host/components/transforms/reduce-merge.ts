// reduce's merge strategies (Vector's merge_strategy.rs): how the values one field takes in the events of a
// group combine into the reduced event's value. Values stay encoded (docs/abi.md §1), so a float stays a
// float and a value kept whole is copied as bytes.

import { ByteReader, ByteWriter, decode, Wire } from '../../../abi/codec.js';
import { display } from '../../../runtime/index.js';

export const MERGE_STRATEGIES = [
  'array',
  'concat',
  'concat_newline',
  'concat_raw',
  'discard',
  'flat_unique',
  'longest_array',
  'max',
  'min',
  'retain',
  'shortest_array',
  'sum',
] as const;

export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

/** Combines the values one field takes in a group's events. */
export interface ValueMerger {
  /**
   * Adds a later event's value, encoded in `source` [start, end) (a batch: it is copied if kept); returns why
   * it cannot (the value is then left out, as Vector warns).
   */
  add(source: Uint8Array, start: number, end: number): string | undefined;
  /** The merged value; for a timestamp field merged by default, also the last timestamp for `<field>_end`. */
  finish(): { value: Uint8Array; end?: Uint8Array };
}

/**
 * The merger of a field from its first value: by `strategy`, or (none configured) by the value's type as
 * Vector does: numbers are summed, a timestamp keeps the first and the last (`<field>_end`), anything else
 * keeps the first. Returns why the strategy cannot start from this value (Vector then waits for another).
 */
export function createMerger(first: Uint8Array, strategy: MergeStrategy | undefined): ValueMerger | string {
  const tag = first[0]!;
  switch (strategy) {
    case undefined:
      if (tag === Wire.Int || tag === Wire.Float) return numberMerger(first, sum);
      if (tag === Wire.Timestamp) return timestampWindow(first);
      return discard(first);
    case 'sum':
    case 'max':
    case 'min':
      if (tag !== Wire.Int && tag !== Wire.Float) return `expected number value, found: '${lossy(first)}'`;
      return numberMerger(first, strategy === 'sum' ? sum : strategy === 'max' ? max : min);
    case 'concat':
      if (tag === Wire.Bytes) return concat(first, ' ');
      if (tag === Wire.Array) return concatArray(first);
      return `expected string or array value, found: '${lossy(first)}'`;
    case 'concat_newline':
    case 'concat_raw':
      if (tag !== Wire.Bytes) return `expected string value, found: '${lossy(first)}'`;
      return concat(first, strategy === 'concat_newline' ? '\n' : '');
    case 'array': {
      const items = [copy(first)];
      return {
        add(source, start, end) {
          items.push(source.slice(start, end));
          return undefined;
        },
        finish: () => ({ value: encodeArray(items) }),
      };
    }
    case 'shortest_array':
    case 'longest_array':
      if (tag !== Wire.Array) return `expected array value, found: '${lossy(first)}'`;
      return arrayByLength(first, strategy === 'longest_array');
    case 'discard':
      return discard(first);
    case 'retain': {
      let kept = copy(first);
      return {
        add(source, start, end) {
          if (source[start] !== Wire.Null) kept = source.slice(start, end);
          return undefined;
        },
        finish: () => ({ value: kept }),
      };
    }
    case 'flat_unique':
      return flatUnique(first);
  }
}

function discard(first: Uint8Array): ValueMerger {
  const kept = copy(first);
  return { add: () => undefined, finish: () => ({ value: kept }) };
}

/** A number as Vector's merger holds it: an integer until a float comes. */
type NumberValue = { int: bigint } | { float: number };

/** The new value from the current one and the one added, or undefined to keep the current one. */
type NumberStep = (current: NumberValue, added: NumberValue) => NumberValue | undefined;

function numberMerger(first: Uint8Array, step: NumberStep): ValueMerger {
  let current = numberOf(first, 0)!;
  return {
    add(source, start, end) {
      const added = numberOf(source, start);
      if (added === undefined) return `expected numeric value, found: '${lossy(source.subarray(start, end))}'`;
      const next = step(current, added);
      if (next !== undefined && 'float' in next && Number.isNaN(next.float)) return 'the sum is not a number';
      if (next !== undefined) current = next;
      return undefined;
    },
    finish() {
      const w = new ByteWriter();
      if ('int' in current) {
        w.u8(Wire.Int);
        w.i64(current.int);
      } else {
        w.u8(Wire.Float);
        w.f64(current.float);
      }
      return { value: w.finish() };
    },
  };
}

const asFloat = (n: NumberValue): number => ('int' in n ? Number(n.int) : n.float);

/** Integers add as i64 (wrapping, as Vector's release build); with a float, as floats. */
const sum: NumberStep = (current, added) =>
  'int' in current && 'int' in added
    ? { int: BigInt.asIntN(64, current.int + added.int) }
    : { float: asFloat(current) + asFloat(added) };

/** Vector's comparison: integers as integers; otherwise as floats, and the one kept becomes a float. */
const extreme =
  (greater: boolean): NumberStep =>
  (current, added) => {
    const wins = (a: number | bigint, b: number | bigint) => (greater ? a > b : a < b);
    if ('int' in current && 'int' in added) return wins(added.int, current.int) ? added : undefined;
    return wins(asFloat(added), asFloat(current)) ? { float: asFloat(added) } : undefined;
  };
const max = extreme(true);
const min = extreme(false);

const scratch = new Uint8Array(8);
const scratchView = new DataView(scratch.buffer);

/** The number encoded at `at`, read through one scratch view (a DataView per value was most of a sum). */
function numberOf(source: Uint8Array, at: number): NumberValue | undefined {
  const tag = source[at];
  if (tag !== Wire.Int && tag !== Wire.Float) return undefined;
  for (let i = 0; i < 8; i++) scratch[i] = source[at + 1 + i]!;
  return tag === Wire.Int ? { int: scratchView.getBigInt64(0, true) } : { float: scratchView.getFloat64(0, true) };
}

function timestampWindow(first: Uint8Array): ValueMerger {
  const started = copy(first);
  const latest = copy(first);
  return {
    add(source, start, end) {
      if (source[start] !== Wire.Timestamp)
        return `expected timestamp value, found: ${lossy(source.subarray(start, end))}`;
      // A timestamp's encoding has one length.
      for (let i = start; i < end; i++) latest[i - start] = source[i]!;
      return undefined;
    },
    finish: () => ({ value: started, end: latest }),
  };
}

function concat(first: Uint8Array, separator: string): ValueMerger {
  const join = Buffer.from(separator);
  // The string's encoding as it grows: tag, u32 length, bytes.
  const w = new ByteWriter();
  w.u8(Wire.Bytes);
  w.raw(first.subarray(1));
  return {
    add(source, start, end) {
      if (source[start] !== Wire.Bytes) return `expected string value, found: '${lossy(source.subarray(start, end))}'`;
      w.raw(join);
      w.raw(source.subarray(start + 5, end));
      return undefined;
    },
    finish() {
      w.view.setUint32(1, w.length - 5, true);
      return { value: w.finish() };
    },
  };
}

/** `concat` from an array: arrays added are appended item by item, other values as one item. */
function concatArray(first: Uint8Array): ValueMerger {
  const items = itemsOf(first);
  return {
    add(source, start, end) {
      const value = source.subarray(start, end);
      items.push(...(value[0] === Wire.Array ? itemsOf(value) : [copy(value)]));
      return undefined;
    },
    finish: () => ({ value: encodeArray(items) }),
  };
}

function arrayByLength(first: Uint8Array, longest: boolean): ValueMerger {
  let kept = copy(first);
  let length = containerCount(kept);
  return {
    add(source, start, end) {
      const value = source.subarray(start, end);
      if (value[0] !== Wire.Array) return `expected array value, found: '${lossy(value)}'`;
      const candidate = containerCount(value);
      if (longest ? candidate > length : candidate < length) {
        kept = copy(value);
        length = candidate;
      }
      return undefined;
    },
    finish: () => ({ value: kept }),
  };
}

/** The distinct values seen, an array's items and an object's values counted one by one (not deeper), in
 * the order first seen (Vector's set has no order). */
function flatUnique(first: Uint8Array): ValueMerger {
  const seen = new Map<string, Uint8Array>();
  const add = (value: Uint8Array) => {
    const members =
      value[0] === Wire.Array ? itemsOf(value) : value[0] === Wire.Object ? fieldValuesOf(value) : [value];
    for (const member of members) {
      // Equal values have equal encodings (object keys are sorted); 1 and 1.0 differ, as in Vector.
      const key = Buffer.from(member.buffer, member.byteOffset, member.byteLength).toString('latin1');
      if (!seen.has(key)) seen.set(key, copy(member));
    }
    return undefined;
  };
  add(first);
  return {
    add: (source, start, end) => add(source.subarray(start, end)),
    finish: () => ({ value: encodeArray([...seen.values()]) }),
  };
}

/** A copy, so that what a group keeps does not hold its batch's whole buffer. */
function copy(value: Uint8Array): Uint8Array {
  return new Uint8Array(value);
}

/** The item (or entry) count of an encoded array (or object). */
function containerCount(value: Uint8Array): number {
  return new DataView(value.buffer, value.byteOffset + 1, 4).getUint32(0, true);
}

/** Copies of an encoded array's items. */
function itemsOf(value: Uint8Array): Uint8Array[] {
  const r = new ByteReader(value, 9);
  return Array.from({ length: containerCount(value) }, () => {
    const start = r.at;
    r.skip();
    return copy(value.subarray(start, r.at));
  });
}

/** Views of an encoded object's values. */
function fieldValuesOf(value: Uint8Array): Uint8Array[] {
  const r = new ByteReader(value, 9);
  return Array.from({ length: containerCount(value) }, () => {
    r.sized();
    const start = r.at;
    r.skip();
    return value.subarray(start, r.at);
  });
}

function encodeArray(items: readonly Uint8Array[]): Uint8Array {
  const w = new ByteWriter();
  w.u8(Wire.Array);
  w.u32(items.length);
  w.u32(items.reduce((total, item) => total + item.length, 0));
  for (const item of items) w.raw(item);
  return w.finish();
}

/** Vector's `to_string_lossy` of a value in its messages: a string as it is, anything else displayed. */
function lossy(value: Uint8Array): string {
  const decoded = decode(value);
  return typeof decoded === 'string' ? decoded : display(decoded);
}
