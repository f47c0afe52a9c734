// Compiled remap modules: `loadModule` compiles the bytes and checks their `svc` custom section (docs/abi.md
// §7); `instantiate` binds the JS functions the module names and the services it is given, and the
// instance moves batches in and out of its arena (§2, §3, §5).
//
// Batch size: each call copies its whole input into the module's memory, and the arena, which never shrinks,
// grows to a few times the largest batch. Feed `runBatch` batches of at most a few MB (1–4 MB); `runNdjson`
// splits larger inputs at line boundaries itself (NDJSON_CHUNK_BYTES).

import { ABI_VERSION, ChainFlag, decodeFailures, readHeader, type ChainFailure } from '../abi/batch.js';
import { CONSTANTS_SECTION, DRIVER_EXPORTS, readModuleInfo, type ModuleInfo } from '../abi/module-info.js';
import { ByteReader, decode, encode } from '../abi/codec.js';
import type { RemapValue } from '../abi/values.js';
import { ArenaInstance, DEFAULT_MEMORY_LIMIT, setMemoryLimit, type OutputOptions } from './arena.js';
import {
  Blob,
  CodecModule,
  decodeDescriptor,
  encodeDescriptorBlob,
  type DecodeOptions,
  type EncodeOptions,
} from './codec-module.js';
import {
  BatchRecords,
  errorRecord,
  joinBatch,
  recordBytes,
  recoverFromTrap,
  TextLines,
  type Attempt,
  type Piece,
  type Trap,
} from './trap-recovery.js';
import { splitByBitmap } from './batch-io.js';
import { moduleImports, type InstanceRef, type JsFunction, type JsFunctionTable } from './imports.js';
import { loadJsFunctions } from './js-functions/index.js';
import { defaultServices, type InstanceServices, type LogLevel } from './services.js';

export { DEFAULT_MEMORY_LIMIT, type OutputOptions } from './arena.js';

/** What an instance is given: the JS-backed functions it may call, its services, and its memory limit. */
export interface InstanceOptions {
  functions: JsFunctionTable;
  services: InstanceServices;
  /**
   * Most bytes the instance's memory may hold, from 1 MiB to 4 GiB (default `DEFAULT_MEMORY_LIMIT`). An event
   * whose program would need more fails with a runtime error; the next one runs on a fresh instance.
   */
  memoryLimit?: number;
}

/** The smallest memory limit accepted. */
export const MIN_MEMORY_LIMIT = 2 ** 20;
/** All a wasm32 memory can address. */
export const MAX_MEMORY_LIMIT = 2 ** 32;

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
    throw new Error(
      `not a compiled remap module: not WebAssembly (${error.message.replace(/^WebAssembly\.Module\(\): /, '')})`,
    );
  }
  return { module, info: checkedInfo(module) };
}

/** A new instance of `module`, with its own memory, regex cache and services. */
export function instantiate(module: WebAssembly.Module, options: InstanceOptions): RemapInstance {
  const limit = options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
  if (!Number.isInteger(limit) || limit < MIN_MEMORY_LIMIT || limit > MAX_MEMORY_LIMIT) {
    throw new RangeError(
      `the memory limit must be a whole number of bytes from ${MIN_MEMORY_LIMIT} (1 MiB) to ${MAX_MEMORY_LIMIT} (4 GiB); got ${limit}`,
    );
  }
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
  ndjson_lines(): number;
  failures_ptr(): number;
  failures_len(): number;
  arena_used(): number;
  runtime_state(): number;
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

const REQUIRED_EXPORTS: ReadonlyArray<keyof ModuleExports> = ['memory', 'svc_init', ...DRIVER_EXPORTS];

export interface NdjsonOutput {
  /** The output lines (with `reuse`, valid until the next call). */
  output: Buffer;
  /** Lines that failed: 0-based line index in the whole input, and the message. */
  errors: Array<{ line: number; message: string }>;
  /** The lines of the input, blank ones and a last one without its newline included. */
  lines: number;
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
  /** Where `runNdjson` with `reuse` gathers output made by several calls. */
  private reusedOutput: OutputBytes | undefined;
  /** `log()` lines of the driver call running now, written when it completes. */
  private readonly logs: HeldLogs;
  /** The options the instances are started with: `options` with `log()` going through `logs`. */
  private readonly started: InstanceOptions;

  /** Use `instantiate`: `info` is the module's checked `svc` section. */
  constructor(
    private readonly module: WebAssembly.Module,
    readonly info: ModuleInfo,
    private readonly options: InstanceOptions,
  ) {
    const logs = new HeldLogs(options.services.log);
    const started = { ...options, services: { ...options.services, log: logs.log } };
    super(startInstance(module, info, started), options.memoryLimit ?? DEFAULT_MEMORY_LIMIT, 'the program');
    this.logs = logs;
    this.started = started;
  }

  protected restart(): ModuleExports {
    return startInstance(this.module, this.info, this.started);
  }

  /** Runs an input batch (docs/abi.md §2) and returns the output batch: a copy, or with `reuse` a view. */
  runBatch(input: Uint8Array, { reuse = false }: OutputOptions = {}): Uint8Array {
    // A view is overwritten by the next call: the pieces of a recovery are copied as they come.
    const run = (batch: Uint8Array, view: boolean) =>
      this.attempt(() => {
        const output = this.bytes(this.exports.run_batch(this.copyIn(batch), batch.length), this.exports.output_len());
        return view ? output : output.slice();
      });
    const first = run(input, reuse);
    if ('value' in first) return first.value;
    const records = new BatchRecords(input);
    const pieces = recoverFromTrap(first.trap, records.count, (start, end) => run(records.slice(start, end), false));
    const sections = pieces.map((piece) =>
      'value' in piece ? recordBytes(piece.value) : errorRecord(records.record(piece.failed), piece.message),
    );
    return joinBatch(records.flags, records.count, sections);
  }

  /**
   * Runs an input batch in chain mode (docs/abi.md §2.1): the output is itself an input batch, for the next
   * component. `flags`: `ChainFlag`s.
   */
  runChain(input: Uint8Array, flags = 0): ChainOutput {
    const run = (batch: Uint8Array) =>
      this.attempt(() => {
        const out = this.exports.run_chain(this.copyIn(batch), batch.length, flags);
        const output = this.bytes(out, this.exports.output_len()).slice();
        return { output, count: readHeader(new ByteReader(output)).count, failures: this.failures() };
      });
    const first = run(input);
    if ('value' in first) return first.value;
    const records = new BatchRecords(input);
    const pieces = recoverFromTrap(first.trap, records.count, (start, end) => run(records.slice(start, end)));
    const sections: Uint8Array[] = [];
    const failures: ChainFailure[] = [];
    let count = 0;
    for (const piece of pieces) {
      if ('value' in piece) {
        sections.push(recordBytes(piece.value.output));
        count += piece.value.count;
        for (const failure of piece.value.failures) failures.push({ ...failure, index: piece.start + failure.index });
      } else {
        // A trap is a runtime error: forwarded unchanged with KEEP_ON_ERROR, as run_chain forwards one.
        const record = records.record(piece.failed);
        failures.push({ index: piece.failed, outcome: 'error', message: piece.message, record });
        if (flags & ChainFlag.KEEP_ON_ERROR) {
          sections.push(record);
          count++;
        }
      }
    }
    return { output: joinBatch(records.flags, count, sections), count, failures };
  }

  /** Whether the module exports `run_framed` (compiled with the `framed` option). */
  get framed(): boolean {
    return 'run_framed' in this.exports;
  }

  /**
   * Decodes framed bytes as a source's decoder would, runs the program on each event as `runChain` does,
   * and returns the emitted events as an input batch or, with `encode`, encoded as a sink's encoder would
   * (docs/abi.md §2.4). `flags`: `ChainFlag`s. Needs a module compiled with the `framed` option.
   *
   * When an event traps, the call is done again in three steps: the codec module decodes, `runChain` runs
   * (recovering from the trap) and the codec module encodes.
   */
  runFramed(input: Uint8Array, decode: DecodeOptions, encode: EncodeOptions | undefined, flags = 0): FramedOutput {
    const blob = new Blob();
    const decodeRef = decodeDescriptor(blob, decode);
    const encoding = encode && encodeDescriptorBlob(encode, false);
    const result = this.attempt(() => {
      const ptr = this.copyIn(input);
      const base = this.copyBlob(blob);
      const encodeAt = encoding ? this.copyBlob(encoding.blob) + encoding.ref.offset : 0;
      const run = (this.exports as ModuleExports & FramedExports).run_framed;
      const at = run(ptr, input.length, base + decodeRef.offset, encodeAt, flags) >>> 0;
      const [
        out,
        outLength,
        count,
        decoded,
        failuresAt,
        failuresLength,
        decodeErrorsAt,
        decodeErrorsLength,
        encodeErrorsAt,
        encodeErrorsLength,
      ] = new Uint32Array(this.exports.memory.buffer, at, 10);
      return {
        output: this.copyOut(out!, outLength!),
        count: count!,
        decoded: decoded!,
        failures: failuresLength === 0 ? [] : decodeFailures(this.bytes(failuresAt!, failuresLength!).slice()),
        decodeErrors: this.readErrors(decodeErrorsAt!, decodeErrorsLength!).map(({ index, message }) => ({
          frame: index,
          message,
        })),
        encodeErrors: this.readErrors(encodeErrorsAt!, encodeErrorsLength!).map(({ index, message }) => ({
          event: index,
          message,
        })),
      };
    });
    return 'value' in result ? result.value : this.runFramedInSteps(input, decode, encode, flags);
  }

  private runFramedInSteps(
    input: Uint8Array,
    decode: DecodeOptions,
    encode: EncodeOptions | undefined,
    flags: number,
  ): FramedOutput {
    const codec = new CodecModule({ timezone: this.options.services.timezone });
    const decoded = codec.decode(input, decode);
    const chain =
      flags & ChainFlag.CONDITION
        ? this.matching(decoded.batch)
        : this.runChain(decoded.batch, flags & (ChainFlag.KEEP_ON_ERROR | ChainFlag.KEEP_ON_ABORT));
    const failures =
      flags & ChainFlag.FAILED_RECORDS
        ? chain.failures
        : chain.failures.map(({ record: _record, ...failure }) => failure);
    const common = { decoded: decoded.count, failures, decodeErrors: decoded.errors };
    if (encode === undefined) return { ...common, output: chain.output, count: chain.count, encodeErrors: [] };
    const encoded = codec.encode(chain.output, encode);
    return {
      ...common,
      output: encoded.bytes,
      count: chain.count - encoded.errors.length,
      encodeErrors: encoded.errors,
    };
  }

  /** The records of an input batch the program, a condition, holds for, as `runChain` gives its output. */
  private matching(input: Uint8Array): ChainOutput {
    const { bits, failures } = this.runCondition(input);
    const { matched, matchedCount } = splitByBitmap(input, bits);
    return { output: matched, count: matchedCount, failures };
  }

  /** Runs the program as a condition on each record of an input batch (docs/abi.md §2.2). */
  runCondition(input: Uint8Array): ConditionOutput {
    const run = (batch: Uint8Array) =>
      this.attempt(() => {
        const out = this.exports.run_condition(this.copyIn(batch), batch.length);
        return { bits: this.bytes(out, this.exports.output_len()).slice(), failures: this.failures() };
      });
    const first = run(input);
    if ('value' in first) return first.value;
    const records = new BatchRecords(input);
    const pieces = recoverFromTrap(first.trap, records.count, (start, end) => run(records.slice(start, end)));
    const bits = new Uint8Array((records.count + 7) >> 3);
    const failures: ChainFailure[] = [];
    for (const piece of pieces) {
      if ('value' in piece) {
        for (let i = 0; i < piece.end - piece.start; i++) {
          if (piece.value.bits[i >> 3]! & (1 << (i & 7))) bits[(piece.start + i) >> 3]! |= 1 << ((piece.start + i) & 7);
        }
        for (const failure of piece.value.failures) failures.push({ ...failure, index: piece.start + failure.index });
      } else {
        failures.push({ index: piece.failed, outcome: 'error', message: piece.message });
      }
    }
    return { bits, failures };
  }

  /** The failures of the last `run_chain` or `run_condition`, copied out (none: nothing copied). */
  private failures(): ChainFailure[] {
    const length = this.exports.failures_len();
    return length === 0 ? [] : decodeFailures(this.bytes(this.exports.failures_ptr(), length).slice());
  }

  /**
   * Runs newline-delimited JSON (docs/abi.md §3), in pieces of whole lines when the input is large. With
   * `reuse`, the output of an input that one call ran is a view of module memory, else it is gathered into
   * a buffer the instance keeps.
   */
  runNdjson(input: Uint8Array, flags: number, { reuse = false }: OutputOptions = {}): NdjsonOutput {
    const output = reuse ? (this.reusedOutput ??= new OutputBytes()) : new OutputBytes();
    output.clear();
    /** The output of the one call that ran the whole input, left in module memory. */
    let whole: Uint8Array | undefined;
    const errors: NdjsonOutput['errors'] = [];
    // Output is appended as each call returns: calls run in line order, also when recovering from a trap.
    const run = (text: Uint8Array, done: number, view = false) =>
      this.attempt(() => {
        const out = this.exports.run_ndjson(this.copyIn(text), text.length, flags);
        const lineErrors = this.readErrors(this.exports.errors_ptr(), this.exports.errors_len());
        const bytes = this.bytes(out, this.exports.output_len());
        if (view) whole = bytes;
        else output.append(bytes, done);
        return lineErrors;
      });
    let lines = 0;
    // The module counts a chunk's lines as it runs them; this side counts them only when a trap needs it.
    for (const chunk of ndjsonChunks(input, NDJSON_CHUNK_BYTES)) {
      const { bytes, firstLine } = chunk;
      const done = (bytes.byteOffset - input.byteOffset + bytes.length) / input.length;
      const first = run(bytes, done, reuse && bytes.length === input.length);
      if ('value' in first) chunk.lines = this.exports.ndjson_lines();
      const pieces =
        'value' in first
          ? [{ start: 0, value: first.value }]
          : recoverInChunk(first.trap, chunk, (text) => run(text, done));
      lines += chunk.lines;
      for (const piece of pieces) {
        if ('value' in piece) {
          for (const { index, message } of piece.value) errors.push({ line: firstLine + piece.start + index, message });
        } else {
          errors.push({ line: firstLine + piece.failed, message: piece.message });
        }
      }
    }
    return {
      output: whole ? Buffer.from(whole.buffer, whole.byteOffset, whole.length) : output.bytes(),
      errors,
      lines,
    };
  }

  /**
   * Runs a batch with the program's first variable slots holding `variables` (a module compiled in REPL
   * mode, with predefined variables); returns the output and the values of slots `0..slots-1` afterwards.
   * A trap fails the batch's events with the trap's message and leaves the variables as they were (slots
   * past `variables`, new in this program, null as before a run).
   */
  runBatchWithVariables(
    input: Uint8Array,
    variables: readonly RemapValue[],
    slots: number,
  ): { output: Uint8Array; variables: RemapValue[] } {
    const repl = this.exports as ModuleExports & ReplExports;
    const result = this.attempt(() => {
      const base = repl.svc_variables() >>> 0;
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
    if ('value' in result) return result.value;
    const records = new BatchRecords(input);
    const failed = Array.from({ length: records.count }, (_, index) =>
      errorRecord(records.record(index), result.trap.message),
    );
    return {
      output: joinBatch(records.flags, records.count, failed),
      variables: Array.from({ length: slots }, (_, slot) => variables[slot] ?? null),
    };
  }

  /** Bytes allocated in the arena since the last reset. */
  arenaUsed(): number {
    return this.exports.arena_used() >>> 0;
  }

  /** ArenaInstance's `attempt`; the `log()` lines of a call that trapped are dropped: its events run again, and log again. */
  protected override attempt<T>(work: () => T): Attempt<T> {
    this.logs.hold();
    const result = super.attempt(work);
    if ('value' in result) this.logs.release();
    else this.logs.drop();
    return result;
  }
}

/** `log()` lines held while a driver call runs: written if it completes, dropped if it traps. */
class HeldLogs {
  private held: Array<[LogLevel, string, number]> | undefined;

  constructor(private readonly sink: InstanceServices['log']) {}

  readonly log = (level: LogLevel, message: string, position: number): void => {
    if (this.held) this.held.push([level, message, position]);
    else this.sink(level, message, position);
  };

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held!;
    this.held = undefined;
    for (const [level, message, position] of held) this.sink(level, message, position);
  }

  drop(): void {
    this.held = undefined;
  }
}

/**
 * A WebAssembly instance of `module` with its JS functions and services bound, its memory limit set and its
 * constants decoded (`svc_init`): ready to run.
 */
function startInstance(module: WebAssembly.Module, info: ModuleInfo, options: InstanceOptions): ModuleExports {
  const functions = info.jsFunctions.map((name) => bindJsFunction(options.functions, name));
  const ref: InstanceRef = {};
  const instance = new WebAssembly.Instance(module, moduleImports(ref, functions, options.services));
  const missing = REQUIRED_EXPORTS.filter((name) => !(name in instance.exports));
  if (missing.length > 0)
    throw new Error(`the module lacks the export${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  const exports = instance.exports as unknown as ModuleExports;
  ref.memory = exports.memory;
  ref.alloc = exports.alloc;
  setMemoryLimit(exports, options.memoryLimit ?? DEFAULT_MEMORY_LIMIT);
  const [section] = WebAssembly.Module.customSections(module, CONSTANTS_SECTION);
  const constants = new Uint8Array(section ?? new ArrayBuffer(0));
  const at = exports.alloc(constants.length) >>> 0;
  new Uint8Array(exports.memory.buffer, at, constants.length).set(constants);
  exports.svc_init(at);
  return exports;
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

  /** Empties it for another run; the buffer stays. */
  clear(): void {
    this.length = 0;
  }

  /** Appends `piece`, the output of the input up to fraction `done` (0 < done ≤ 1) of the whole. */
  append(piece: Uint8Array, done: number): void {
    const needed = this.length + piece.length;
    if (needed > this.buffer.length) {
      // Room for the rest of the output at the rate so far (all of it when this is the last piece).
      const expected = Math.ceil(needed / done);
      const grown = Buffer.allocUnsafe(
        done === 1 ? needed : Math.max(expected + (expected >> 3), 2 * this.buffer.length),
      );
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

/** A piece of NDJSON input: `firstLine` is the index of its first line in the whole input, `lines` the
 * number of lines in it: counted on first use, unless a run that read them all set it first. */
export interface NdjsonChunk {
  bytes: Uint8Array;
  firstLine: number;
  lines: number;
}

/**
 * Splits NDJSON into pieces of at most `maxBytes` that end after a newline (a line longer than `maxBytes`
 * is a piece of its own). Lines are counted only when there is a next piece or `lines` is read: an input
 * run in one piece without a trap is never scanned for them.
 */
export function* ndjsonChunks(input: Uint8Array, maxBytes: number): Generator<NdjsonChunk> {
  let firstLine = 0;
  for (let start = 0; start < input.length; ) {
    let end = input.length;
    if (end - start > maxBytes) {
      const lastNewline = input.lastIndexOf(NEWLINE, start + maxBytes - 1);
      end = lastNewline >= start ? lastNewline + 1 : input.indexOf(NEWLINE, start + maxBytes) + 1 || input.length;
    }
    const bytes = input.subarray(start, end);
    let lines: number | undefined;
    const chunk: NdjsonChunk = {
      bytes,
      firstLine,
      // Only the input's last line may lack its newline.
      get lines() {
        return (lines ??= countOf(bytes, NEWLINE) + (bytes[bytes.length - 1] === NEWLINE ? 0 : 1));
      },
      set lines(count) {
        lines = count;
      },
    };
    yield chunk;
    // A piece followed by another ends with its last line's newline.
    if (end < input.length) firstLine += chunk.lines;
    start = end;
  }
}

function countOf(bytes: Uint8Array, byte: number): number {
  let count = 0;
  for (let at = bytes.indexOf(byte); at >= 0; at = bytes.indexOf(byte, at + 1)) count++;
  return count;
}

/** `recoverFromTrap` over the lines of `chunk`, each range run by `run`. */
function recoverInChunk<T>(trap: Trap, chunk: NdjsonChunk, run: (text: Uint8Array) => Attempt<T>): Array<Piece<T>> {
  const textLines = new TextLines(chunk.bytes, chunk.lines);
  return recoverFromTrap(trap, chunk.lines, (start, end) => run(textLines.slice(start, end)));
}
