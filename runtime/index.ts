// The library API of svc's remap engine (see ../shared/conformance/README.md for the contract): compile a
// program to a wasm module (cached on disk), run it on JS values, batches or NDJSON, and display values.

import { loadCompiler, type CompileOptions, type Diagnostic, type ModuleOptions } from '../compiler/index.js';
import { NdjsonFlag } from '../abi/batch.js';
import {
  buildId,
  cacheKey,
  compilerVersion,
  readCached,
  sameKeyParts,
  writeCached,
  type CacheKeyParts,
} from './cache.js';
import type { ModuleInfo } from '../abi/module-info.js';
import { instantiate, loadModule } from './module.js';
import { Program } from './program.js';
import { JS_FUNCTION_NAMES, loadJsFunctions } from './js-functions/index.js';
import { defaultServices, type InstanceServices } from './services.js';

export {
  CompileError,
  renderDiagnostics,
  type Diagnostic,
  type Label,
  type Note,
  type Severity,
} from '../compiler/index.js';
export type { CompileOptions, ModuleOptions };
export { Program, RemapRuntimeError } from './program.js';
export {
  DEFAULT_MEMORY_LIMIT,
  instantiate,
  loadInstance,
  loadModule,
  RemapInstance,
  type InstanceOptions,
  type NdjsonOutput,
  type OutputOptions,
} from './module.js';
export { defaultServices, stderrLog, systemClock, type InstanceServices, type LogLevel } from './services.js';
export { JS_FUNCTION_NAMES, loadJsFunctions } from './js-functions/index.js';
export type { JsFunction, JsFunctionTable } from './imports.js';
export { readModuleInfo, type ModuleInfo } from '../abi/module-info.js';
export {
  encodeBatch,
  decodeOutput,
  BatchFlag,
  NdjsonFlag,
  type EventKind,
  type InputEvent,
  type OutputRecord,
} from '../abi/batch.js';
export { Timestamp, Regex, type RemapValue } from '../abi/values.js';
export { display } from './display.js';
export { isTimeZone, namedTimeZone, type TimeZone } from './time-zones.js';

/** `runNdjson` flags: print `.` instead of the result; write emitted events as JSON instead of display text. */
export const NDJSON_PRINT_OBJECT = NdjsonFlag.PRINT_OBJECT;
export const NDJSON_JSON = NdjsonFlag.JSON;

/** `compile`'s options: the compiler's, and the instance's memory limit. */
export interface ProgramOptions extends CompileOptions {
  /** Most bytes the program's memory may hold (1 MiB to 4 GiB; default `DEFAULT_MEMORY_LIMIT`, 1 GiB). An
   * event that needs more fails with a runtime error, and the next one runs. */
  memoryLimit?: number;
}

/**
 * Compiles a remap program into a runnable `Program` (its `warnings` included); rejects with a
 * `CompileError` whose `.diagnostics` lists the errors and whose `.message` is the rendered text.
 * Compiled modules are cached on disk (see runtime/cache.ts): a cache hit loads neither the parser nor
 * binaryen.
 */
export async function compile(source: string, options: ProgramOptions = {}): Promise<Program> {
  const { memoryLimit, ...compileOptions } = options;
  const { module, info, warnings } = await compileToModule(source, compileOptions);
  return programOf(module, info, { warnings, memoryLimit });
}

/**
 * A program on a module from `compileToModule` or `loadModule`, with the JS functions it calls and the
 * module's default services, or `services` where given: for callers that keep the module, to run it on other
 * threads too.
 */
export async function programOf(
  module: WebAssembly.Module,
  info: ModuleInfo,
  {
    warnings = [],
    memoryLimit,
    services,
  }: { warnings?: readonly Diagnostic[]; memoryLimit?: number; services?: Partial<InstanceServices> } = {},
): Promise<Program> {
  const functions = await loadJsFunctions(info.jsFunctions);
  return new Program(
    instantiate(module, { functions, services: { ...defaultServices(info), ...services }, memoryLimit }),
    warnings,
  );
}

/**
 * Compiles through the on-disk cache to a `WebAssembly.Module`, for callers that instantiate it themselves
 * (a pipeline compiles on its main thread and instantiates in worker threads). Rejects as `compile` does.
 */
export async function compileToModule(
  source: string,
  options: CompileOptions = {},
): Promise<{ module: WebAssembly.Module; info: ModuleInfo; warnings: Diagnostic[] }> {
  const parts = { source, options, compilerVersion: compilerVersion(), build: buildId() };
  const key = cacheKey(parts);
  const cached = loadCached(key, parts);
  if (cached) return { ...cached, warnings: (cached.info.warnings ?? []) as Diagnostic[] };
  const { wasm, warnings } = await compileModule(source, options);
  writeCached(key, wasm);
  return { ...loadModule(wasm), warnings };
}

/**
 * The cached module for `key`, if it loads and its own `svc` section says it was compiled from `parts`:
 * a damaged entry, or one another program left under this key, is a miss (and is then overwritten).
 */
function loadCached(key: string, parts: CacheKeyParts): { module: WebAssembly.Module; info: ModuleInfo } | undefined {
  const bytes = readCached(key);
  if (!bytes) return undefined;
  try {
    const loaded = loadModule(bytes);
    const { source, options, compiler, build = '' } = loaded.info;
    return sameKeyParts({ source, options, compilerVersion: compiler, build }, parts) ? loaded : undefined;
  } catch {
    return undefined;
  }
}

/** Compiles to the module's bytes (and text form when asked), for `svc vrl --emit-wasm`. */
export async function compileModule(
  source: string,
  options: CompileOptions = {},
  moduleOptions: ModuleOptions = {},
): Promise<{ wasm: Uint8Array; text?: string; warnings: Diagnostic[] }> {
  // The front and back ends load ohm-js and binaryen: only when something is actually compiled.
  const { checkProgram, emitModule } = await loadCompiler();
  const checked = checkProgram(source, options);
  const compiled = await emitModule(checked, compilerVersion(), {
    ...moduleOptions,
    jsFunctions: JS_FUNCTION_NAMES,
    build: buildId(),
  });
  return { ...compiled, warnings: checked.warnings };
}

/** A program from a module compiled earlier (`svc vrl --emit-wasm`, or the cache). */
export async function loadProgram(wasm: Uint8Array): Promise<Program> {
  const { module, info } = loadModule(wasm);
  return programOf(module, info, { warnings: (info.warnings ?? []) as Diagnostic[] });
}
