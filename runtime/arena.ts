// What the remap modules and the codec module share on the JS side: every call copies its input into the
// instance's arena, reads its output as views of memory, and frees the arena when done. Addresses and
// lengths come out of wasm as signed i32: read as unsigned (`>>> 0`), since memory may pass 2 GiB.

import type { Blob } from './codec-module.js';

/** The exports every svc module has. */
export interface ArenaExports {
  memory: WebAssembly.Memory;
  alloc(size: number): number;
  reset(): void;
}

export abstract class ArenaInstance<Exports extends ArenaExports> {
  protected constructor(
    /** Replaced when a remap instance starts afresh after a trap. */
    protected exports: Exports,
    /** The module, as failure messages name it. */
    private readonly moduleName: string,
  ) {}

  /** Runs `work`, then frees the arena. An exception escaping the module is a bug in svc, never a remap error. */
  protected inArena<T>(entry: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof Error) {
        error.message = `${entry} failed inside the ${this.moduleName} (a bug in svc, not a remap error): ${error.message}`;
      }
      throw error;
    } finally {
      this.exports.reset();
    }
  }

  /** Copies `data` into the arena; returns its address. */
  protected copyIn(data: Uint8Array): number {
    const ptr = this.exports.alloc(data.length) >>> 0;
    this.bytes(ptr, data.length).set(data);
    return ptr;
  }

  /** A copy of module memory that outlives the arena: an ArrayBuffer of its own (transferable), not zeroed
   * first as `slice` does, since every byte is written. */
  protected copyOut(ptr: number, len: number): Uint8Array {
    const size = len >>> 0;
    const copy = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
    copy.set(this.bytes(ptr, size));
    return copy;
  }

  /** A view of module memory (valid until the memory grows). */
  protected bytes(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr >>> 0, len >>> 0);
  }

  /** Copies a descriptor blob into the arena; returns its address. */
  protected copyBlob(blob: Blob): number {
    const base = this.exports.alloc(blob.length) >>> 0;
    blob.writeTo(new Uint8Array(this.exports.memory.buffer), base);
    return base;
  }

  /** An error buffer: (u32 index, u32 length, UTF-8 message)*. */
  protected readErrors(ptr: number, len: number): Array<{ index: number; message: string }> {
    const bytes = this.bytes(ptr, len);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const errors: Array<{ index: number; message: string }> = [];
    for (let at = 0; at < bytes.length; ) {
      const length = view.getUint32(at + 4, true);
      errors.push({ index: view.getUint32(at, true), message: Buffer.from(bytes.subarray(at + 8, at + 8 + length)).toString('utf8') });
      at += 8 + length;
    }
    return errors;
  }
}
