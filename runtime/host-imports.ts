// The imports a compiled module (or the bare stdlib) needs from the host: docs/abi.md §6.

import { randomFillSync } from 'node:crypto';
import { translateRegex } from '../compiler/regex.js';
import { ByteReader, ByteWriter, encodeValue } from './codec.js';
import { namedTimeZone, offsetOfLocal, type TimeZone } from './time-zones.js';
import type { RemapValue } from './values.js';

/** A host-backed remap function: arguments in parameter order (null when absent). Throws to fail. */
export type HostFunction = (args: RemapValue[], context: HostContext) => RemapValue;

export interface HostContext {
  /** Time zone for functions that take one implicitly (compile option `timezone`). */
  timezone: string;
}

/** What the imports need of the instance they serve, bound after instantiation. */
export interface InstanceRef {
  memory?: WebAssembly.Memory;
  alloc?: (size: number) => number;
}

export function hostImports(
  ref: InstanceRef,
  functions: readonly HostFunction[],
  context: HostContext,
): WebAssembly.Imports {
  const regexes: RegExp[] = [];
  let timezone: TimeZone | undefined;
  const regexIds = new Map<string, number>();
  const bytes = (ptr: number, len: number) => new Uint8Array(ref.memory!.buffer, ptr, len);
  const text = (ptr: number, len: number) => Buffer.from(ref.memory!.buffer, ptr, len).toString('utf8');
  /** Copies `data` into the arena and returns its address. */
  const writeBack = (data: Uint8Array) => {
    const ptr = ref.alloc!(data.length);
    bytes(ptr, data.length).set(data);
    return ptr;
  };
  return {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`stdlib assertion failed at ${line}:${column}`);
      },
    },
    svc_host: {
      call(fn: number, ptr: number, len: number): number {
        const args = new ByteReader(bytes(ptr, len)).value() as RemapValue[];
        const reply = new ByteWriter();
        try {
          const result = functions[fn]!(args, context);
          reply.u8(0);
          encodeValue(reply, result);
        } catch (error) {
          reply.u8(1);
          reply.sized(Buffer.from(error instanceof Error ? error.message : String(error)));
        }
        return writeBack(reply.finish());
      },
      regex(ptr: number, len: number): number {
        const pattern = text(ptr, len);
        let id = regexIds.get(pattern);
        if (id === undefined) {
          const { source, flags } = translateRegex(pattern);
          id = regexes.push(new RegExp(source, flags)) - 1;
          regexIds.set(pattern, id);
        }
        return id;
      },
      regex_match(id: number, ptr: number, len: number): number {
        const re = regexes[id]!;
        re.lastIndex = 0;
        return re.test(text(ptr, len)) ? 1 : 0;
      },
      now(): bigint {
        return process.hrtime.bigint() - hrtimeOrigin + epochOrigin;
      },
      tz_offset(localSeconds: bigint): number {
        timezone ??= namedTimeZone(context.timezone);
        return offsetOfLocal(timezone, Number(localSeconds));
      },
      log(level: number, ptr: number, len: number): void {
        const line = text(ptr, len);
        process.stderr.write(`${LOG_LEVELS[level] ?? 'info'}: ${line}\n`);
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

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'];
const hrtimeOrigin = process.hrtime.bigint();
const epochOrigin = BigInt(Date.now()) * 1_000_000n;
