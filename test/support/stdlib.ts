// Test harness for the bare stdlib (dist/stdlib.wasm, before linking): calls its exported functions on
// JS values moved through the binary codec, so stdlib code can be tested without the code generator.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode, encode } from '../../runtime/codec.js';
import { hostImports, type HostFunction, type InstanceRef } from '../../runtime/host-imports.js';
import type { RemapValue } from '../../runtime/values.js';

const wasmPath = fileURLToPath(new URL('../../stdlib.wasm', import.meta.url));
const stdlibModule = new WebAssembly.Module(readFileSync(wasmPath));

type Exports = Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };

export class Stdlib {
  readonly exports: Exports;

  constructor(hostFunctions: HostFunction[] = [], timezone = 'UTC') {
    const ref: InstanceRef = {};
    const imports = hostImports(ref, hostFunctions, { timezone });
    imports.svc = { program: () => 0 };
    const instance = new WebAssembly.Instance(stdlibModule, imports);
    this.exports = instance.exports as unknown as Exports;
    ref.memory = this.exports.memory;
    ref.alloc = this.exports.alloc!;
  }

  /** Moves a JS value into wasm memory; returns the value's address. */
  put(value: unknown): number {
    const bytes = encode(value);
    const ptr = this.exports.alloc!(bytes.length);
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    return this.exports.value_decode!(ptr);
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
