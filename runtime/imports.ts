// The imports a compiled module (or the bare stdlib) needs from the JS side: docs/abi.md §6.

import { randomFillSync } from 'node:crypto';
import { RegexSyntaxError, RustRegex } from '../abi/regex.js';
import { ByteReader, ByteWriter, encodeValue, UnrepresentableValueError } from '../abi/codec.js';
import { regexProgram } from '../abi/regex-program.js';
import { BoundedCache } from '../abi/bounded-cache.js';
import { namedTimeZone, offsetOfLocal, parseTimeZone, type TimeZone } from './time-zones.js';
import { strftimeProgram, type ProgramKind } from '../abi/strftime-program.js';
import { NO_ZONE_OFFSET } from '../abi/wire/strftime-program.js';
import type { RemapValue } from '../abi/values.js';
import { DEFAULT_MAX_DECOMPRESSED_SIZE, LOG_LEVELS, type InstanceServices } from './services.js';
import { workerIo, type BlockingIo } from './blocking-io.js';
import type { EnrichmentTables, MetricSample } from './service-data.js';

/** A JS-backed remap function: arguments in parameter order (null when absent). Throws to fail. */
export type JsFunction = (args: RemapValue[], context: JsCallContext) => RemapValue;

/** JS-backed functions by name, as a module's `jsFunctions` names them. */
export type JsFunctionTable = Readonly<Record<string, JsFunction>>;

/** What a JS function sees: the instance's time zone and its regex cache. */
export interface JsCallContext {
  /** Time zone for functions that take one implicitly (`InstanceServices.timezone`). */
  timezone: string;
  /** The compiled regex for a Rust pattern, once per instance (the pattern was validated at compile time). */
  regex(pattern: string): RustRegex;
  /** Blocking network I/O (`InstanceServices.io`). */
  io: BlockingIo;
  /** Most bytes a decompression function may produce. */
  maxDecompressedSize: number;
  /** The internal metrics snapshot (`InstanceServices.metrics`), when its services give one. */
  metrics?: () => readonly MetricSample[];
  /** The enrichment tables (`InstanceServices.enrichmentTables`), when its services give any. */
  enrichmentTables?: EnrichmentTables;
}

/** What the imports need of the instance they serve, bound after instantiation. */
export interface InstanceRef {
  memory?: WebAssembly.Memory;
  alloc?: (size: number) => number;
}

/** A `parse_grok` pattern as the stdlib runs it (`svc_js.grok`): the regex VM's program and each field's
 * group number, in the fields' order. */
export interface GrokProgram {
  program: Uint8Array;
  fields: Array<{ group: number; name: string }>;
}

/** `parse_grok` patterns as the stdlib runs them, once runtime/js-functions/support/grok.ts is loaded. */
let grokPrograms: ((pattern: string) => GrokProgram) | undefined;

/** Gives `svc_js.grok` the compiler of grok patterns (registered by the grok support, loaded with parse_grok). */
export function useGrokPrograms(compile: (pattern: string) => GrokProgram): void {
  grokPrograms = compile;
}

/**
 * `svc_js.grok`'s reply for a pattern: u32 program length, the program padded to 4 bytes, u32 field count, then
 * each field's u32 group, u32 name length and UTF-8 name padded to 4; undefined when the stdlib cannot run
 * it (not compiled here, or invalid: the JS function words the error).
 */
function grokReply(pattern: string): Uint8Array | undefined {
  let grok;
  try {
    grok = grokPrograms!(pattern);
  } catch {
    return undefined;
  }
  const w = new ByteWriter();
  const padded = (bytes: Uint8Array) => {
    w.sized(bytes);
    for (let pad = (4 - (bytes.length % 4)) % 4; pad > 0; pad--) w.u8(0);
  };
  padded(grok.program);
  w.u32(grok.fields.length);
  for (const { group, name } of grok.fields) {
    w.u32(group);
    padded(Buffer.from(name));
  }
  return w.finish().slice();
}

/** Distinct patterns an instance keeps compiled (JS engine and wasm programs each). */
const REGEXES_CACHED = 1024;

export function moduleImports(
  ref: InstanceRef,
  functions: readonly JsFunction[],
  services: InstanceServices,
): WebAssembly.Imports {
  let timezone: TimeZone | undefined;
  const regexes = new BoundedCache<string, RustRegex>(REGEXES_CACHED);
  /** Programs of the patterns modules compile at run time (`svc_js.regex`), or why a pattern is invalid. */
  const programs = new BoundedCache<string, Uint8Array | string>(REGEXES_CACHED);
  const grokReplies = new BoundedCache<string, Uint8Array | undefined>(REGEXES_CACHED);
  const callContext: JsCallContext = {
    timezone: services.timezone,
    regex: (pattern) => regexes.get(pattern, compileRegex),
    io: services.io ?? workerIo(),
    maxDecompressedSize: services.maxDecompressedSize ?? DEFAULT_MAX_DECOMPRESSED_SIZE,
    metrics: services.metrics,
    enrichmentTables: services.enrichmentTables,
  };
  // Addresses and lengths arrive as signed i32: unsigned, since memory may pass 2 GiB.
  const bytes = (ptr: number, len: number) => new Uint8Array(ref.memory!.buffer, ptr >>> 0, len >>> 0);
  const text = (ptr: number, len: number) => Buffer.from(ref.memory!.buffer, ptr >>> 0, len >>> 0).toString('utf8');
  /** One writer for every reply: each is copied into the arena before the next call can start. */
  const replyWriter = new ByteWriter();
  const newReply = () => {
    replyWriter.clear();
    return replyWriter;
  };
  /** Copies `data` into the arena and returns its address. */
  const writeBack = (data: Uint8Array) => {
    const ptr = ref.alloc!(data.length) >>> 0;
    bytes(ptr, data.length).set(data);
    return ptr;
  };
  return {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`stdlib assertion failed at ${line}:${column}`);
      },
    },
    svc_js: {
      call(fn: number, ptr: number, len: number): number {
        const args = new ByteReader(bytes(ptr, len)).value() as RemapValue[];
        let reply = newReply();
        try {
          const result = functions[fn]!(args, callContext);
          reply.u8(0);
          encodeValue(reply, result);
        } catch (error) {
          // A result that cannot be encoded fails the call (the reply may hold part of it: start over).
          reply = newReply();
          reply.u8(1);
          const message =
            error instanceof UnrepresentableValueError
              ? error.reason
              : error instanceof Error
                ? error.message
                : String(error);
          reply.sized(Buffer.from(message));
        }
        return writeBack(reply.finish());
      },
      grok(ptr: number, len: number): number {
        if (grokPrograms === undefined) return 0;
        const reply = grokReplies.get(text(ptr, len), grokReply);
        return reply === undefined ? 0 : writeBack(reply);
      },
      regex(ptr: number, len: number): number {
        const pattern = text(ptr, len);
        const program = programs.get(pattern, programOrError);
        const reply = newReply();
        reply.u32(typeof program === 'string' ? 1 : 0);
        reply.sized(typeof program === 'string' ? Buffer.from(program) : program);
        return writeBack(reply.finish());
      },
      now(): bigint {
        return services.now();
      },
      tz_offset(localSeconds: bigint): number {
        timezone ??= namedTimeZone(services.timezone);
        return offsetOfLocal(timezone, Number(localSeconds));
      },
      tz_offset_in(ptr: number, len: number, localSeconds: bigint): number {
        const zone = parseTimeZone(text(ptr, len));
        return zone === undefined ? NO_ZONE_OFFSET : offsetOfLocal(zone, Number(localSeconds));
      },
      strftime_program(kind: ProgramKind, ptr: number, len: number): number {
        const program = strftimePrograms.get(`${kind}${text(ptr, len)}`, buildStrftimeProgram);
        if (!program) return 0;
        const reply = newReply();
        reply.sized(program);
        return writeBack(reply.finish());
      },
      log(level: number, ptr: number, len: number, position: number): void {
        services.log(LOG_LEVELS[level] ?? 'info', text(ptr, len), position);
      },
      random(ptr: number, len: number): void {
        randomFillSync(bytes(ptr, len));
      },
      parse_float(ptr: number, len: number): number {
        return Number(text(ptr, len));
      },
    },
  };
}

const compileRegex = (pattern: string) => new RustRegex(pattern);

/** strftime programs by `${kind}${format}` (the kind is one digit). */
const strftimePrograms = new BoundedCache<string, Uint8Array | undefined>(256);
const buildStrftimeProgram = (key: string) => strftimeProgram(Number(key[0]) as ProgramKind, key.slice(1));

/** The program of a pattern, or VRL's message when it is invalid. */
function programOrError(pattern: string): Uint8Array | string {
  try {
    return regexProgram(pattern);
  } catch (error) {
    if (!(error instanceof RegexSyntaxError)) throw error;
    return error.message;
  }
}
