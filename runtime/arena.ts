// What the remap modules and the codec module share on the JS side: every call copies its input into the
// instance's arena, reads its output as views of memory, and frees the arena when done.

/** The exports every svc module has. */
export interface ArenaExports {
  memory: WebAssembly.Memory;
  alloc(size: number): number;
  reset(): void;
}

export abstract class ArenaInstance<Exports extends ArenaExports> {
  protected constructor(
    protected readonly exports: Exports,
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
    const ptr = this.exports.alloc(data.length);
    this.bytes(ptr, data.length).set(data);
    return ptr;
  }

  /** A copy of module memory that outlives the arena: an ArrayBuffer of its own (transferable), not zeroed
   * first as `slice` does, since every byte is written. */
  protected copyOut(ptr: number, len: number): Uint8Array {
    const copy = new Uint8Array(Buffer.allocUnsafeSlow(len).buffer, 0, len);
    copy.set(this.bytes(ptr, len));
    return copy;
  }

  /** A view of module memory (valid until the memory grows). */
  protected bytes(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr, len);
  }
}
