// A REPL session: each line is compiled as its own program, knowing the event and the variables left by
// earlier lines (their kinds from their current values), and runs with them restored.

import { checkProgram, emitModule, type CompileOptions } from '../compiler/compile.js';
import { BOOLEAN, BYTES, FLOAT, INTEGER, NULL, REGEX, TIMESTAMP, exactArray, exactObject, type Kind } from '../compiler/check/kind.js';
import { BatchFlag, decodeOutput, encodeBatch } from '../abi/batch.js';
import { compilerVersion } from './cache.js';
import { HOST_FUNCTIONS } from './host-functions/index.js';
import { RemapInstance } from './module.js';
import { RemapRuntimeError } from './program.js';
import { Regex, Timestamp, type RemapValue } from '../abi/values.js';

export class ReplSession {
  /** The event `.` as the last line left it. */
  event: RemapValue = {};
  /** Variables defined so far, in slot order. */
  readonly variables = new Map<string, RemapValue>();

  constructor(private readonly options: CompileOptions = {}) {}

  /**
   * Compiles and runs one line; resolves with its result. Rejects with a `CompileError` (nothing changes)
   * or a `RemapRuntimeError` (the event keeps the changes made before the error, as in VRL's REPL).
   */
  async evaluate(source: string): Promise<RemapValue> {
    const names = [...this.variables.keys()];
    const checked = checkProgram(source, this.options, {
      target: kindOf(this.event),
      variables: new Map(names.map((name) => [name, kindOf(this.variables.get(name)!)])),
    });
    const { wasm } = await emitModule(checked, compilerVersion(), { predefined: names, hostFunctions: new Set(Object.keys(HOST_FUNCTIONS)) });
    const instance = new RemapInstance(wasm);
    const slots = instance.info.variables ?? [];
    const input = encodeBatch([{ event: this.event }], BatchFlag.RESULTS | BatchFlag.RAW);
    const run = instance.runBatchWithVariables(input, names.map((n) => this.variables.get(n)!), slots.length);
    for (const [name, slot] of slots) this.variables.set(name, run.variables[slot]!);
    const [record] = decodeOutput(run.output);
    if (record?.outcome === 'kept') {
      this.event = record.events[0]!.event;
      return record.result ?? null;
    }
    if (record?.outcome === 'error' || record?.outcome === 'aborted') {
      this.event = record.event;
      throw new RemapRuntimeError(record.message, record.event);
    }
    throw new Error('the module answered the line with no result');
  }
}

/** The exact kind of a value (what the checker knows of an earlier line's variable or event). */
function kindOf(value: RemapValue): Kind {
  if (value === null) return NULL;
  if (typeof value === 'boolean') return BOOLEAN;
  if (typeof value === 'bigint') return INTEGER;
  if (typeof value === 'number') return FLOAT;
  if (typeof value === 'string' || value instanceof Uint8Array) return BYTES;
  if (value instanceof Timestamp) return TIMESTAMP;
  if (value instanceof Regex) return REGEX;
  if (Array.isArray(value)) return exactArray(value.map(kindOf));
  return exactObject(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, kindOf(v)])));
}
