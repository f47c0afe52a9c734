// Compiled remap modules: `loadModule` compiles the bytes and checks their `svc` custom section (docs/abi.md
// §7); `instantiate` binds the JS functions the module names and the services it is given, and the
// instance moves batches in and out of its arena (§2, §3, §5).
//
// Batch size: each call copies its whole input into the module's memory, and the arena, which never shrinks,
// grows to a few times the largest batch. Feed `runBatch` batches of at most a few MB (1–4 MB); `runNdjson`
// splits larger inputs at line boundaries itself (NDJSON_CHUNK_BYTES).

import { ABI_VERSION, decodeFailures, readHeader, type ChainFailure } from '../abi/batch.js';
import { CONSTANTS_SECTION, readModuleInfo, type ModuleInfo } from '../abi/module-info.js';
import { ByteReader, decode, encode } from '../abi/codec.js';
import type { RemapValue } from '../abi/values.js';
import { ArenaInstance } from './arena.js';
import { Blob, decodeDescriptor, encodeDescriptor, type DecodeOptions, type EncodeOptions } from './codec-module.js';
import { moduleImports, type InstanceRef, type JsFunction, type JsFunctionTable } from './imports.js';
import { loadJsFunctions } from './js-functions/index.js';
import { defaultServices, type InstanceServices } from './services.js';

/** What an instance is given: the JS-backed functions it may call, and its services. */
export interface InstanceOptions {
  functions: JsFunctionTable;
  services: InstanceServices;
}

/**
 * Compiles a module and reads its `svc` section; refuses, with an error that says why, bytes that are not
 * WebAssembly, a module that is not a compiled remap program, and one of another ABI version.
 */
export function loadModule(bytes: Uint8Array): { module: WebAssembly.Module; info: ModuleInfo } {
  if (bytes.length === 0) throw new Error('not a compiled remap module: it is empty');
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(bytes);
  } catch (error) {
    if (!(error instanceof WebAssembly.CompileError)) throw error;
    throw new Error(`not a compiled remap module: not WebAssembly (${error.message.replace(/^WebAssembly\.Module\(\): /, '')})`);
  }
  return { module, info: checkedInfo(module) };
}

/** A new instance of `module`, with its own memory, regex cache and services. */
export function instantiate(module: WebAssembly.Module, options: InstanceOptions): RemapInstance {
  return new RemapInstance(module, checkedInfo(module), options);
}

/** `loadModule`, then `instantiate` with the JS functions it calls and the module's default services. */
export async function loadInstance(bytes: Uint8Array): Promise<RemapInstance> {
  const { module, info } = loadModule(bytes);
  return instantiate(module, { functions: await loadJsFunctions(info.jsFunctions), services: defaultServices(info) });
}

/** Module info by module, so instances of a loaded module do not parse its section again. */
const moduleInfos = new WeakMap<WebAssembly.Module, ModuleInfo>();

function checkedInfo(module: WebAssembly.Module): ModuleInfo {
  let info = moduleInfos.get(module);
  if (info === undefined) {
    info = readModuleInfo(module);
    if (info.abi !== ABI_VERSION) {
      throw new Error(
        `the module uses ABI version ${info.abi} (compiled by svc ${info.compiler}), but this svc ` +
          `runs ABI version ${ABI_VERSION}: compile the program again`,
      );
    }
    moduleInfos.set(module, info);
  }
  return info;
}

/** `runNdjson` runs its input in pieces of about this many bytes (whole lines; a longer line is one piece). */
export const NDJSON_CHUNK_BYTES = 1 << 20;

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

/** Exported by modules compiled with the `framed` option. */
interface FramedExports {
  run_framed(ptr: number, len: number, decodeDescriptor: number, encodeDescriptor: number, flags: number): number;
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

/** What `runFramed` returns. */
export interface FramedOutput {
  /** An input batch of the emitted events, or their encoded frames when an encoding was given. */
  output: Uint8Array;
  /** Events in `output`. */
  count: number;
  /** Events the frames decoded into (the program's input). */
  decoded: number;
  /** Events whose program failed; `index` counts decoded events. */
  failures: ChainFailure[];
  /** Frames that did not decode: index of the frame, and why. */
  decodeErrors: Array<{ frame: number; message: string }>;
  /** Emitted events the encoder could not encode (left out of `output`). */
  encodeErrors: Array<{ event: number; message: string }>;
}

/** What `runCondition` returns. */
export interface ConditionOutput {
  /** Bit `i` (LSB first in byte `i >> 3`) is set when record `i`'s condition is `true`. */
  bits: Uint8Array;
  /** Records whose condition failed (their bit is clear); without `record`. */
  failures: ChainFailure[];
}

export class RemapInstance extends ArenaInstance<ModuleExports> {

  /** Use `instantiate`: `info` is the module's checked `svc` section. */
  constructor(module: WebAssembly.Module, readonly info: ModuleInfo, options: InstanceOptions) {
    const functions = info.jsFunctions.map((name) => bindJsFunction(options.functions, name));
    const ref: InstanceRef = {};
    const instance = new WebAssembly.Instance(module, moduleImports(ref, functions, options.services));
    const missing = REQUIRED_EXPORTS.filter((name) => !(name in instance.exports));
    if (missing.length > 0) throw new Error(`the module lacks the export${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    super(instance.exports as unknown as ModuleExports, 'remap module');
    ref.memory = this.exports.memory;
    ref.alloc = this.exports.alloc;
    const [constants] = WebAssembly.Module.customSections(module, CONSTANTS_SECTION);
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

  /** Whether the module exports `run_framed` (compiled with the `framed` option). */
  get framed(): boolean {
    return 'run_framed' in this.exports;
  }

  /**
   * Decodes framed bytes as a source's decoder would, runs the program on each event as `runChain` does,
   * and returns the emitted events as an input batch or, with `encode`, encoded as a sink's encoder would
   * (docs/abi.md §2.4). `flags`: `ChainFlag`s. Needs a module compiled with the `framed` option.
   */
  runFramed(input: Uint8Array, decode: DecodeOptions, encode: EncodeOptions | undefined, flags = 0): FramedOutput {
    const blob = new Blob();
    const decodeRef = decodeDescriptor(blob, decode);
    const encodeRef = encode && encodeDescriptor(blob, encode, false);
    return this.inArena('run_framed', () => {
      const ptr = this.copyIn(input);
      const base = this.copyBlob(blob);
      const run = (this.exports as ModuleExports & FramedExports).run_framed;
      const result = run(ptr, input.length, base + decodeRef.offset, encodeRef ? base + encodeRef.offset : 0, flags);
      const [out, outLength, count, decoded, failuresAt, failuresLength, decodeErrorsAt, decodeErrorsLength, encodeErrorsAt, encodeErrorsLength] =
        new Uint32Array(this.exports.memory.buffer, result, 10);
      return {
        output: this.copyOut(out!, outLength!),
        count: count!,
        decoded: decoded!,
        failures: failuresLength === 0 ? [] : decodeFailures(this.bytes(failuresAt!, failuresLength!).slice()),
        decodeErrors: this.readErrors(decodeErrorsAt!, decodeErrorsLength!).map(({ index, message }) => ({ frame: index, message })),
        encodeErrors: this.readErrors(encodeErrorsAt!, encodeErrorsLength!).map(({ index, message }) => ({ event: index, message })),
      };
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
}

function bindJsFunction(functions: JsFunctionTable, name: string): JsFunction {
  if (!Object.hasOwn(functions, name)) {
    throw new Error(`the module calls JS function "${name}", which this svc does not provide`);
  }
  return functions[name]!;
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
