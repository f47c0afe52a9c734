// Values and path descriptors known at compile time. They are written into one blob (custom section
// `svc.constants`, docs/abi.md §7) that the runtime copies into the module's memory before `svc_init`, which
// decodes each value once; programs then refer to them by offset.

import type { PathSegment } from '../ast.js';
import type { Constant } from '../functions/define.js';
import { ByteWriter, encodeValue, IntegralFloat } from '../../abi/codec.js';
import { Regex, Timestamp } from '../../abi/values.js';
import { regexProgram } from '../../abi/regex-program.js';
import { PathSegmentKind } from '../../abi/wire/path.js';
import { timestampNanos } from '../types/timestamp.js';

export class ConstantPool {
  private readonly blob = new ByteWriter();
  /** Index of each value (by key) in `values`, and offset of each path descriptor (by key). */
  private readonly indexes = new Map<string, number>();
  /** Offsets of the encoded values, in the order `svc_init` decodes them into its table. */
  readonly values: number[] = [];

  /** Index of a constant value in the decoded table (deduplicated). */
  value(constant: Constant): number {
    const js = toJs(constant);
    return this.encoded('v' + keyOf(js), js);
  }

  /** Index of a byte string constant that is no text (a format's item program, say). */
  bytesValue(bytes: Uint8Array): number {
    return this.encoded('b' + Buffer.from(bytes).toString('hex'), bytes);
  }

  private encoded(key: string, js: unknown): number {
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = this.values.push(this.blob.length) - 1;
      encodeValue(this.blob, js);
      this.indexes.set(key, index);
    }
    return index;
  }

  /** Index of a byte string constant. */
  bytes(text: string): number {
    return this.value({ kind: 'string', value: text });
  }

  /** Offset of a path descriptor (the layout stdlib-as/path.ts reads), 4-byte aligned. */
  path(segments: readonly PathSegment[]): number {
    const key = 'p' + JSON.stringify(segments.map(segmentKey));
    let offset = this.indexes.get(key);
    if (offset !== undefined) return offset;
    this.align();
    offset = this.blob.length;
    const w = this.blob;
    w.u32(segments.length);
    for (const segment of segments) {
      switch (segment.kind) {
        case 'field':
          w.u32(PathSegmentKind.Field);
          this.paddedBytes(segment.name);
          break;
        case 'index':
          w.u32(PathSegmentKind.Index);
          w.i64(BigInt(segment.index));
          break;
        case 'coalesce':
          w.u32(PathSegmentKind.Coalesce);
          w.u32(segment.fields.length);
          for (const field of segment.fields) this.paddedBytes(field);
          break;
      }
    }
    this.indexes.set(key, offset);
    return offset;
  }

  finish(): Uint8Array {
    return this.blob.finish().slice();
  }

  private paddedBytes(text: string): void {
    this.blob.sized(Buffer.from(text, 'utf8'));
    this.align();
  }

  private align(): void {
    while (this.blob.length % 4 !== 0) this.blob.u8(0);
  }
}

function segmentKey(s: PathSegment): unknown {
  return s.kind === 'field' ? ['f', s.name] : s.kind === 'index' ? ['i', s.index] : ['c', s.fields];
}

/** The JS form the codec encodes (integers as bigint so they stay integers). */
function toJs(c: Constant): unknown {
  switch (c.kind) {
    case 'string':
      return c.value;
    case 'integer':
      return c.value;
    case 'float':
      return new IntegralFloat(c.value);
    case 'boolean':
      return c.value;
    case 'null':
      return null;
    case 'timestamp':
      return new Timestamp(timestampNanos(c.text));
    case 'regex': {
      const pattern = c.flags ? `(?${c.flags})${c.pattern}` : c.pattern;
      return new Regex(pattern, regexProgram(pattern));
    }
    case 'array':
      return c.items.map(toJs);
    case 'object':
      return Object.fromEntries([...c.fields].map(([k, v]) => [k, toJs(v)]));
  }
}

/** A key telling constants apart by kind and value (1 and 1.0 differ, as do "a" and r'a'). */
function keyOf(js: unknown): string {
  if (typeof js === 'bigint') return `i${js}`;
  if (js instanceof IntegralFloat) return `f${Object.is(js.value, -0) ? '-0' : js.value}`;
  if (typeof js === 'string') return `s${JSON.stringify(js)}`;
  if (js instanceof Timestamp) return `t${js.nanos}`;
  if (js instanceof Regex) return `r${JSON.stringify(js.pattern)}`;
  if (Array.isArray(js)) return `[${js.map(keyOf).join(',')}]`;
  if (js !== null && typeof js === 'object') {
    return `{${Object.entries(js)
      .map(([k, v]) => `${JSON.stringify(k)}:${keyOf(v)}`)
      .join(',')}}`;
  }
  return String(js);
}
