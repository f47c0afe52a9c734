// What the remap modules and the codec module share on the JS side: every call copies its input into the
// instance's arena, reads its output as views of memory, and frees the arena when done; a call that traps
// comes back as a `Trap` and the instance starts afresh. Addresses and lengths come out of wasm as signed
// i32: read as unsigned (`>>> 0`), since memory may pass 2 GiB.

import type { Attempt, Trap } from './trap-recovery.js';
import { NOT_RUNNING, RuntimeState, TrapCause } from '../abi/wire/batch.js';

/** The exports every svc module has. */
export interface ArenaExports {
  memory: WebAssembly.Memory;
  alloc(size: number): number;
  reset(): void;
  runtime_state(): number;
}

/** Data laid out for the arena (codec-module.ts's `Blob`): its size, and how to copy it to an address. */
export interface ArenaBlob {
  readonly length: number;
  writeTo(memory: Uint8Array, base: number): void;
}

/** How the entry points that take it (`runBatch`, `runNdjson`, the codec module's `encode`) hand back their output. */
export interface OutputOptions {
  /**
   * The output is not copied for the caller: it is a view of memory the instance reuses (of the module's
   * own memory when one driver call made all of it), valid only until the next call on the instance (or
   * on its `Program`). Write it out or copy it before then. By default the output is a copy the caller keeps.
   */
  reuse?: boolean;
}

/** The memory limit of an instance whose options give none: 1 GiB. */
export const DEFAULT_MEMORY_LIMIT = 2 ** 30;
const PAGE_BYTES = 65536;
/**
 * Memory never shrinks: an instance whose memory grew past this, or past half its limit, is replaced after
 * the call, so one large event does not keep its memory for the life of the process.
 */
const RETAINED_MEMORY_BYTES = 256 * 2 ** 20;

/** Writes the memory limit of a new instance into its runtime state, before it allocates anything. */
export function setMemoryLimit(exports: ArenaExports, limit: number): void {
  new DataView(exports.memory.buffer).setUint32(
    (exports.runtime_state() >>> 0) + RuntimeState.LimitPages,
    Math.floor(limit / PAGE_BYTES),
    true,
  );
}

export abstract class ArenaInstance<Exports extends ArenaExports> {
  protected constructor(
    /** Replaced when the instance starts afresh after a trap. */
    protected exports: Exports,
    /** Bytes the instance's memory may hold. */
    readonly memoryLimit: number,
    /** What the limit applies to, as messages name it: "the program", "the codec module". */
    private readonly limited: string,
  ) {}

  /** A new instance of the same module, its memory limit set: what replaces one that trapped. */
  protected abstract restart(): Exports;

  /**
   * Runs `work`, one driver call, then frees the arena. A trap (or any exception: nothing a program or an
   * event does may throw) comes back as the `Trap`, and the instance is replaced by a fresh one; so is an
   * instance whose memory grew past RETAINED_MEMORY_BYTES or half its limit.
   */
  protected attempt<T>(work: () => T): Attempt<T> {
    const state = this.exports.runtime_state() >>> 0;
    const view = new DataView(this.exports.memory.buffer);
    view.setUint32(state + RuntimeState.Running, NOT_RUNNING, true);
    view.setUint32(state + RuntimeState.TrapCause, TrapCause.None, true);
    let result: Attempt<T>;
    try {
      result = { value: work() };
      this.exports.reset();
    } catch (error) {
      result = { trap: this.trapOf(error, state) };
    }
    if ('trap' in result || this.memoryBytes() > Math.min(RETAINED_MEMORY_BYTES, this.memoryLimit / 2))
      this.exports = this.restart();
    return result;
  }

  /** Size of the module's linear memory (it grows to fit the largest call, never shrinks). */
  memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** What the trap `error` of the last call means for its event (the memory of a trapped instance stays readable). */
  private trapOf(error: unknown, state: number): Trap {
    const view = new DataView(this.exports.memory.buffer);
    const running = view.getUint32(state + RuntimeState.Running, true);
    const cause = view.getUint32(state + RuntimeState.TrapCause, true) as TrapCause;
    const text = error instanceof Error ? error.message : String(error);
    let message: string;
    if (cause === TrapCause.MemoryLimit) {
      message = `memory limit exceeded: this event needs more than the ${formatBytes(this.memoryLimit)} ${this.limited} may use`;
    } else if (cause === TrapCause.AddressSpace) {
      message = 'out of memory: this event needs more than the 4 GiB a program can address';
    } else if (cause === TrapCause.GrowRefused) {
      message = 'out of memory: the system refused the program more memory';
    } else if (error instanceof RangeError && /call stack/i.test(text)) {
      message = 'stack overflow: a value is nested too deeply for this program';
    } else {
      message = `internal error (a bug in svc, not in the program): ${text}`;
    }
    return { index: running === NOT_RUNNING ? undefined : running, message };
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
  protected copyBlob(blob: ArenaBlob): number {
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
      errors.push({
        index: view.getUint32(at, true),
        message: Buffer.from(bytes.subarray(at + 8, at + 8 + length)).toString('utf8'),
      });
      at += 8 + length;
    }
    return errors;
  }
}

/** `n` bytes as a person reads them: whole MiB or GiB when they are, else bytes. */
function formatBytes(n: number): string {
  if (n % 2 ** 30 === 0) return `${n / 2 ** 30} GiB`;
  if (n % 2 ** 20 === 0) return `${n / 2 ** 20} MiB`;
  return `${n} bytes`;
}
