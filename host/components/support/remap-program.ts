// Remap programs inside transforms (remap itself, conditions, templates): compiled on the main thread at
// `prepare`, where errors stop the start-up, and carried to the worker as a `WebAssembly.Module` in the plan.

import {
  CompileError, compileToModule, defaultServices, instantiate, JS_FUNCTIONS, readModuleInfo, renderDiagnostics,
  type CompileOptions, type RemapInstance,
} from '../../../runtime/index.js';
import type { ComponentEnv, TransformResult } from '../component.js';

/**
 * Compiles a program; compile errors reject with the rendered diagnostics (prefixed with `what`, e.g. the
 * option holding it), compile warnings are logged.
 */
export async function compileProgram(source: string, options: CompileOptions, env: ComponentEnv, what?: string): Promise<WebAssembly.Module> {
  try {
    const { module, warnings } = await compileToModule(source, options);
    if (warnings.length > 0) env.log.warn(`VRL compilation warning.${what ? ` (${what})` : ''}\n${renderDiagnostics(source, warnings)}`);
    return module;
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    throw new Error(what ? `${what}: ${error.message}` : error.message);
  }
}

/** Groups runtime failures by message, as `TransformResult.errors` reports them. */
export function failureErrors(
  failures: ReadonlyArray<{ message: string }>,
  errorType: string,
  describe: (message: string) => string,
): Array<{ count: number; errorType: string; stage: string; message: string }> {
  const counts = new Map<string, number>();
  for (const { message } of failures) counts.set(message, (counts.get(message) ?? 0) + 1);
  return [...counts].map(([message, count]) => ({ count, errorType, stage: 'processing', message: describe(message) }));
}

/** Remap `log()` calls made by a transform's programs while it processes a batch; the transform returns
 * them in its `TransformResult`, and the main thread logs them through the component's logger. */
export class RemapLogs {
  private records: NonNullable<TransformResult['logs']> = [];

  readonly push = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string): void => {
    this.records.push({ level, message });
  };

  /** The calls since the last `take`. */
  take(): TransformResult['logs'] {
    if (this.records.length === 0) return undefined;
    const records = this.records;
    this.records = [];
    return records;
  }
}

/** An instance of a compiled program in the transform's thread. */
export function instantiateProgram(module: WebAssembly.Module, logs: RemapLogs): RemapInstance {
  return instantiate(module, { functions: JS_FUNCTIONS, services: { ...defaultServices(readModuleInfo(module)), log: logs.push } });
}
