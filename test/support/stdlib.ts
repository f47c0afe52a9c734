// Test harness for the bare stdlib (dist/stdlib.wasm, before linking): calls its exported functions on
// JS values moved through the binary codec, so stdlib code can be tested without the code generator.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode, encode } from '../../abi/codec.js';
import { moduleImports, type JsFunction, type InstanceRef } from '../../runtime/imports.js';
import { stderrLog, systemClock } from '../../runtime/services.js';
import type { RemapValue } from '../../abi/values.js';

const wasmPath = fileURLToPath(new URL('../../stdlib.wasm', import.meta.url));
const stdlibModule = new WebAssembly.Module(readFileSync(wasmPath));

type Exports = Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };

/** A path segment for `Stdlib.path`: a field name, an array index, or the fields of `.(a | b)`. */
export type PathSegment = string | number | string[];

const PATH_FIELD = 0;
const PATH_INDEX = 1;
const PATH_COALESCE = 2;

export class Stdlib {
  readonly exports: Exports;
  /** What the stdlib's `svc.program` import runs (the code generator's program in a linked module). */
  program: () => number = () => 0;

  constructor(jsFunctions: JsFunction[] = [], timezone = 'UTC') {
    const ref: InstanceRef = {};
    const imports = moduleImports(ref, jsFunctions, { now: systemClock, timezone, log: stderrLog });
    imports.svc = { program: () => this.program() };
    const instance = new WebAssembly.Instance(stdlibModule, imports);
    this.exports = instance.exports as unknown as Exports;
    ref.memory = this.exports.memory;
    ref.alloc = this.exports.alloc!;
  }

  /** Moves a JS value into wasm memory; returns the value's address. */
  put(value: unknown): number {
    return this.exports.value_decode!(this.write(encode(value)));
  }

  /** Copies bytes into the arena; returns their address. */
  write(bytes: Uint8Array): number {
    const ptr = this.exports.alloc!(bytes.length);
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  }

  /** Bytes of wasm memory (a copy). */
  read(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr, len).slice();
  }

  /** Writes a path descriptor (the layout of stdlib-as/path.ts) into the arena; returns its address. */
  path(...segments: PathSegment[]): number {
    const words: number[] = [segments.length];
    const key = (name: string) => {
      const bytes = Buffer.from(name, 'utf8');
      const padded = Buffer.alloc((bytes.length + 3) & ~3);
      bytes.copy(padded);
      words.push(bytes.length);
      for (let i = 0; i < padded.length; i += 4) words.push(padded.readUInt32LE(i));
    };
    for (const segment of segments) {
      if (typeof segment === 'number') {
        words.push(PATH_INDEX, segment >>> 0, segment < 0 ? 0xffffffff : 0); // i64, little-endian
      } else if (typeof segment === 'string') {
        words.push(PATH_FIELD);
        key(segment);
      } else {
        words.push(PATH_COALESCE, segment.length);
        segment.forEach(key);
      }
    }
    return this.write(new Uint8Array(Uint32Array.from(words).buffer));
  }

  /** A fresh u32 cell holding `value` (as a variable slot would); returns the cell's address. */
  cell(value: unknown): number {
    const cell = this.exports.alloc!(4);
    new DataView(this.exports.memory.buffer).setUint32(cell, this.put(value), true);
    return cell;
  }

  /** The value held by the cell at `cell`. */
  cellValue(cell: number): RemapValue {
    return this.get(new DataView(this.exports.memory.buffer).getUint32(cell, true));
  }

  /** Reads the value at `address` back as a JS value. */
  get(address: number): RemapValue {
    const ptr = this.exports.value_encode!(address);
    const size = this.exports.value_encoded_size!(address);
    return decode(new Uint8Array(this.exports.memory.buffer, ptr, size).slice());
  }

  /** The pending error message. */
  error(): string {
    const ptr = this.exports.error_ptr!();
    return Buffer.from(this.exports.memory.buffer, ptr, this.exports.error_len!()).toString('utf8');
  }

  /**
   * Calls export `name` with the given JS values (`undefined` for an absent argument, passed as 0).
   * Returns `{ value }`, or `{ error }` when the function failed.
   */
  call(name: string, ...args: unknown[]): { value: RemapValue } | { error: string } {
    const fn = this.exports[name];
    if (typeof fn !== 'function') throw new Error(`stdlib has no export ${name}`);
    const result = fn(...args.map((a) => (a === undefined ? 0 : this.put(a))));
    return result === 0 ? { error: this.error() } : { value: this.get(result) };
  }
}
