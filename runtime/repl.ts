// A REPL session: each line is compiled as its own program, knowing the event and the variables left by
// earlier lines (their kinds from their current values), and runs with them restored.

import { loadCompiler, type CompileOptions } from '../compiler/index.js';
import { BatchFlag, decodeOutput, encodeBatch } from '../abi/batch.js';
import type { RemapValue } from '../abi/values.js';
import { compilerVersion } from './cache.js';
import { JS_FUNCTION_NAMES } from './js-functions/index.js';
import { loadInstance } from './module.js';
import { RemapRuntimeError } from './program.js';

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
    const { checkProgram, emitModule, kindOfValue } = await loadCompiler();
    const names = [...this.variables.keys()];
    const checked = checkProgram(source, this.options, {
      target: kindOfValue(this.event),
      variables: new Map(names.map((name) => [name, kindOfValue(this.variables.get(name)!)])),
    });
    const { wasm } = await emitModule(checked, compilerVersion(), {
      predefined: names,
      jsFunctions: JS_FUNCTION_NAMES,
    });
    const instance = await loadInstance(wasm);
    const slots = instance.info.variables ?? [];
    const input = encodeBatch([{ event: this.event }], BatchFlag.RESULTS | BatchFlag.RAW);
    const run = instance.runBatchWithVariables(
      input,
      names.map((n) => this.variables.get(n)!),
      slots.length,
    );
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
