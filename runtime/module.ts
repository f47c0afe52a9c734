// A compiled remap module, instantiated: reads its `svc` custom section (docs/abi.md §7), binds the host
// functions it names, and moves batches in and out of its arena (§2, §3, §5).
//
// Batch size: each call copies its whole input into the module's memory, and the arena, which never shrinks,
// grows to a few times the largest batch. Feed `runBatch` batches of at most a few MB (1–4 MB); `runNdjson`
// splits larger inputs at line boundaries itself (NDJSON_CHUNK_BYTES).

import { ABI_VERSION, decodeFailures, readHeader, type ChainFailure } from './batch.js';
import { ByteReader, decode, encode } from './codec.js';
import type { RemapValue } from './values.js';
import { HOST_FUNCTIONS } from './host-functions/index.js';
import { hostImports, type HostFunction, type InstanceRef } from './host-imports.js';

/** The `svc` custom section. */
export interface ModuleInfo {
  abi: number;
  /** Version of the svc that compiled the module. */
  compiler: string;
  source: string;
  options: { timezone?: string } & Record<string, unknown>;
  /** Host-backed functions, in the order of their numbers in `svc_host.call`. */
  hostFunctions: string[];
  /** Compile warnings, so a cached module reports them without compiling again. */
  warnings?: unknown[];
  /** Top-level variables and their slots. */
  variables?: Array<[name: string, slot: number]>;
}

/** `runNdjson` runs its input in pieces of about this many bytes (whole lines; a longer line is one piece). */
export const NDJSON_CHUNK_BYTES = 1 << 20;

const SECTION = 'svc';
/** Encoded constants of the program; `svc_init` decodes them in place, so they stay in memory. */
const CONSTANTS_SECTION = 'svc.constants';

/** Reads a compiled module's `svc` custom section; throws when the module has none or it is malformed. */
export function readModuleInfo(module: Uint8Array | WebAssembly.Module): ModuleInfo {
  const compiled = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
  const [section] = WebAssembly.Module.customSections(compiled, SECTION);
  if (!section) throw new Error(`not a compiled remap module: it has no "${SECTION}" custom section`);
  let info: Partial<ModuleInfo>;
  try {
    info = JSON.parse(Buffer.from(section).toString('utf8')) as Partial<ModuleInfo>;
  } catch (error) {
    throw new Error(`the module's "${SECTION}" section is not valid JSON: ${(error as Error).message}`);
  }
  const malformed = (what: string) => new Error(`the module's "${SECTION}" section is malformed: ${what}`);
  if (typeof info !== 'object' || info === null) throw malformed('not an object');
  if (typeof info.abi !== 'number') throw malformed('no "abi" version');
  if (typeof info.compiler !== 'string') throw malformed('no "compiler" version');
  if (typeof info.source !== 'string') throw malformed('no "source"');
  if (typeof info.options !== 'object' || info.options === null) throw malformed('no "options" object');
  if (!Array.isArray(info.hostFunctions) || !info.hostFunctions.every((name) => typeof name === 'string')) {
    throw malformed('"hostFunctions" is not a list of names');
  }
  return info as ModuleInfo;
}

/** The exports of docs/abi.md §5. */
interface ModuleExports {
  memory: WebAssembly.Memory;
  svc_init(constants: number): void;
  alloc(size: number): number;
  reset(): void;
  run_batch(ptr: number, len: number): number;
  run_chain(ptr: number, len: number, flags: number): number;
  run_condition(ptr: number, len: number): number;
  run_ndjson(ptr: number, len: number, flags: number): number;
  output_len(): number;
  errors_ptr(): number;
  errors_len(): number;
  failures_ptr(): number;
  failures_len(): number;
  arena_used(): number;
}

/** Exported by modules compiled in REPL mode. */
interface ReplExports {
  svc_variables(): number;
  value_decode(ptr: number): number;
  value_encode(value: number): number;
  value_encoded_size(value: number): number;
}

const REQUIRED_EXPORTS: ReadonlyArray<keyof ModuleExports> = [
  'memory', 'svc_init', 'alloc', 'reset', 'run_batch', 'run_chain', 'run_condition', 'run_ndjson', 'output_len',
  'errors_ptr', 'errors_len', 'failures_ptr', 'failures_len', 'arena_used',
];

export interface NdjsonOutput {
  /** The output lines. */
  output: Buffer;
  /** Lines that failed: 0-based line index in the whole input, and the message. */
  errors: Array<{ line: number; message: string }>;
}

/** What `runChain` returns. */
export interface ChainOutput {
  /** An input batch of the emitted events (and, with the KEEP_* flags, of the original failed records). */
  output: Uint8Array;
  /** Its record count. */
  count: number;
  failures: ChainFailure[];
}

/** What `runCondition` returns. */
export interface ConditionOutput {
  /** Bit `i` (LSB first in byte `i >> 3`) is set when record `i`'s condition is `true`. */
  bits: Uint8Array;
  /** Records whose condition failed (their bit is clear); without `record`. */
  failures: ChainFailure[];
}

export class RemapInstance {
  readonly info: ModuleInfo;
  private readonly exports: ModuleExports;

  constructor(module: Uint8Array | WebAssembly.Module) {
    const compiled = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
    this.info = readModuleInfo(compiled);
    if (this.info.abi !== ABI_VERSION) {
      throw new Error(
        `the module uses ABI version ${this.info.abi} (compiled by svc ${this.info.compiler}), but this svc ` +
          `runs ABI version ${ABI_VERSION}: compile the program again`,
      );
    }
    const functions = this.info.hostFunctions.map(bindHostFunction);
    const timezone = this.info.options.timezone ?? 'UTC';
    const ref: InstanceRef = {};
    const instance = new WebAssembly.Instance(compiled, hostImports(ref, functions, { timezone }));
    const missing = REQUIRED_EXPORTS.filter((name) => !(name in instance.exports));
    if (missing.length > 0) throw new Error(`the module lacks the export${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    this.exports = instance.exports as unknown as ModuleExports;
    ref.memory = this.exports.memory;
    ref.alloc = this.exports.alloc;
    const [constants] = WebAssembly.Module.customSections(compiled, CONSTANTS_SECTION);
    this.exports.svc_init(this.copyIn(new Uint8Array(constants ?? new ArrayBuffer(0))));
  }

  /** Runs an input batch (docs/abi.md §2) and returns a copy of the output batch. */
  runBatch(input: Uint8Array): Uint8Array {
    return this.inArena('run_batch', () => {
      const out = this.exports.run_batch(this.copyIn(input), input.length);
      return this.bytes(out, this.exports.output_len()).slice();
    });
  }

  /**
   * Runs an input batch in chain mode (docs/abi.md §2.1): the output is itself an input batch, for the next
   * component. `flags`: `ChainFlag`s.
   */
  runChain(input: Uint8Array, flags = 0): ChainOutput {
    return this.inArena('run_chain', () => {
      const out = this.exports.run_chain(this.copyIn(input), input.length, flags);
      const output = this.bytes(out, this.exports.output_len()).slice();
      return { output, count: readHeader(new ByteReader(output)).count, failures: this.failures() };
    });
  }

  /** Runs the program as a condition on each record of an input batch (docs/abi.md §2.2). */
  runCondition(input: Uint8Array): ConditionOutput {
    return this.inArena('run_condition', () => {
      const out = this.exports.run_condition(this.copyIn(input), input.length);
      return { bits: this.bytes(out, this.exports.output_len()).slice(), failures: this.failures() };
    });
  }

  /** The failures of the last `run_chain` or `run_condition`, copied out (none: nothing copied). */
  private failures(): ChainFailure[] {
    const length = this.exports.failures_len();
    return length === 0 ? [] : decodeFailures(this.bytes(this.exports.failures_ptr(), length).slice());
  }

  /** Runs newline-delimited JSON (docs/abi.md §3), in pieces of whole lines when the input is large. */
  runNdjson(input: Uint8Array, flags: number): NdjsonOutput {
    const output = new OutputBytes();
    const errors: NdjsonOutput['errors'] = [];
    for (const { bytes, firstLine } of ndjsonChunks(input, NDJSON_CHUNK_BYTES)) {
      this.inArena('run_ndjson', () => {
        const out = this.exports.run_ndjson(this.copyIn(bytes), bytes.length, flags);
        output.append(this.bytes(out, this.exports.output_len()), (bytes.byteOffset - input.byteOffset + bytes.length) / input.length);
        const errorBytes = this.bytes(this.exports.errors_ptr(), this.exports.errors_len());
        const view = new DataView(errorBytes.buffer, errorBytes.byteOffset, errorBytes.byteLength);
        for (let at = 0; at < errorBytes.length; ) {
          const line = firstLine + view.getUint32(at, true);
          const length = view.getUint32(at + 4, true);
          errors.push({ line, message: Buffer.from(errorBytes.subarray(at + 8, at + 8 + length)).toString('utf8') });
          at += 8 + length;
        }
      });
    }
    return { output: output.bytes(), errors };
  }

  /**
   * Runs a batch with the program's first variable slots holding `variables` (a module compiled in REPL
   * mode, with predefined variables); returns the output and the values of slots `0..slots-1` afterwards.
   */
  runBatchWithVariables(input: Uint8Array, variables: readonly RemapValue[], slots: number): { output: Uint8Array; variables: RemapValue[] } {
    const repl = this.exports as ModuleExports & ReplExports;
    return this.inArena('run_batch', () => {
      const base = repl.svc_variables();
      variables.forEach((value, slot) => {
        const address = repl.value_decode(this.copyIn(encode(value)));
        new DataView(this.exports.memory.buffer).setUint32(base + slot * 4, address, true);
      });
      const out = this.exports.run_batch(this.copyIn(input), input.length);
      const output = this.bytes(out, this.exports.output_len()).slice();
      const after: RemapValue[] = [];
      for (let slot = 0; slot < slots; slot++) {
        const address = new DataView(this.exports.memory.buffer).getUint32(base + slot * 4, true);
        after.push(decode(this.bytes(repl.value_encode(address), repl.value_encoded_size(address))));
      }
      return { output, variables: after };
    });
  }

  /** Size of the module's linear memory (it grows to fit the largest batch, never shrinks). */
  memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** Bytes allocated in the arena since the last reset. */
  arenaUsed(): number {
    return this.exports.arena_used();
  }

  /** Runs `work`, then frees the arena. An exception escaping the module is a bug in svc, never a remap error. */
  private inArena<T>(entry: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof Error) {
        error.message = `${entry} failed inside the remap module (a bug in svc, not a remap error): ${error.message}`;
      }
      throw error;
    } finally {
      this.exports.reset();
    }
  }

  /** Copies `data` into the arena; returns its address. */
  private copyIn(data: Uint8Array): number {
    const ptr = this.exports.alloc(data.length);
    this.bytes(ptr, data.length).set(data);
    return ptr;
  }

  /** A view of module memory (valid until the memory grows). */
  private bytes(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr, len);
  }
}

function bindHostFunction(name: string): HostFunction {
  if (!Object.hasOwn(HOST_FUNCTIONS, name)) {
    throw new Error(`the module calls host function "${name}", which this svc does not provide`);
  }
  return HOST_FUNCTIONS[name]!;
}

/** Output of the pieces of a run, copied out of module memory once, into a buffer sized by the first pieces. */
class OutputBytes {
  private buffer = Buffer.alloc(0);
  private length = 0;

  /** Appends `piece`, the output of the input up to fraction `done` (0 < done ≤ 1) of the whole. */
  append(piece: Uint8Array, done: number): void {
    const needed = this.length + piece.length;
    if (needed > this.buffer.length) {
      // Room for the rest of the output at the rate so far (all of it when this is the last piece).
      const expected = Math.ceil(needed / done);
      const grown = Buffer.allocUnsafe(done === 1 ? needed : Math.max(expected + (expected >> 3), 2 * this.buffer.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(piece, this.length);
    this.length = needed;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

const NEWLINE = 0x0a;

/**
 * Splits NDJSON into pieces of at most `maxBytes` that end after a newline (a line longer than `maxBytes`
 * is a piece of its own). `firstLine` is the index of the piece's first line in the whole input.
 */
export function* ndjsonChunks(input: Uint8Array, maxBytes: number): Generator<{ bytes: Uint8Array; firstLine: number }> {
  let firstLine = 0;
  for (let start = 0; start < input.length; ) {
    let end = input.length;
    if (end - start > maxBytes) {
      const lastNewline = input.lastIndexOf(NEWLINE, start + maxBytes - 1);
      end = lastNewline >= start ? lastNewline + 1 : input.indexOf(NEWLINE, start + maxBytes) + 1 || input.length;
    }
    const bytes = input.subarray(start, end);
    yield { bytes, firstLine };
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) firstLine++;
    start = end;
  }
}
