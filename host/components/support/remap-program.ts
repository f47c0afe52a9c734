// Remap programs inside transforms (remap itself, conditions, templates): compiled on the main thread at
// `prepare`, where errors stop the start-up, and carried to the worker as a `WebAssembly.Module` in the plan.

import { readFile } from 'node:fs/promises';
import {
  CompileError,
  compileToModule,
  defaultServices,
  instantiate,
  JS_FUNCTION_NAMES,
  loadJsFunctions,
  loadModule,
  readModuleInfo,
  renderDiagnostics,
  type CompileOptions,
  type ModuleInfo,
  type RemapInstance,
} from '../../../runtime/index.js';
import { compilerVersion, type FramedOutput } from '../../../runtime/engine.js';
import type { ComponentEnv, TransformResult } from '../component.js';
import { threadMetricsSnapshot } from '../../telemetry/metrics-snapshot.js';
import { threadEnrichmentTables } from '../../enrichment/tables.js';

/**
 * Compiles a program; compile errors reject with the rendered diagnostics (prefixed with `what`, e.g. the
 * option holding it), compile warnings are logged. The program may look up the pipeline's enrichment tables
 * (`env.enrichmentTables`), and no others.
 */
export async function compileProgram(
  source: string,
  options: CompileOptions,
  env: ComponentEnv,
  what?: string,
): Promise<WebAssembly.Module> {
  try {
    const { module, warnings } = await compileToModule(source, { enrichmentTables: env.enrichmentTables, ...options });
    if (warnings.length > 0)
      env.log.warn(`VRL compilation warning.${what ? ` (${what})` : ''}\n${renderDiagnostics(source, warnings)}`);
    return module;
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    throw new Error(what ? `${what}: ${error.message}` : error.message);
  }
}

/**
 * Reads a module written by `svc vrl --emit-wasm`. Refuses, naming the file: a file that is not a compiled
 * remap module, a module of another ABI version, one compiled by an svc this one cannot run (see
 * `runsModulesOf`), and one calling JS functions this svc lacks.
 */
export async function loadPrecompiledModule(path: string): Promise<WebAssembly.Module> {
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot read the remap module "${path}": ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    );
  });
  const refuse = (why: string) => new Error(`remap module "${path}": ${why}`);
  let loaded: { module: WebAssembly.Module; info: ModuleInfo };
  try {
    loaded = loadModule(bytes);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  const { module, info } = loaded;
  const version = compilerVersion();
  if (!runsModulesOf(version, info.compiler)) {
    throw refuse(
      `compiled by svc ${info.compiler}, which this svc (${version}) cannot run: compile the program again with \`svc vrl --emit-wasm\``,
    );
  }
  const missing = info.jsFunctions.filter((name) => !JS_FUNCTION_NAMES.has(name));
  if (missing.length > 0) throw refuse(`it calls ${missing.join(', ')}, which this svc does not provide`);
  return module;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

/**
 * Whether svc `version` runs modules compiled by svc `compiler`: the same major version (minor before 1.0,
 * where minor versions may break), and not newer than `version` (a newer compiler may emit what this one
 * does not know).
 */
export function runsModulesOf(version: string, compiler: string): boolean {
  const running = SEMVER.exec(version)?.slice(1, 4).map(Number);
  const compiled = SEMVER.exec(compiler)?.slice(1, 4).map(Number);
  if (!running || !compiled) return false;
  const [major, minor, patch] = running as [number, number, number];
  const [cMajor, cMinor, cPatch] = compiled as [number, number, number];
  if (cMajor !== major || (major === 0 && cMinor !== minor)) return false;
  return cMinor < minor || (cMinor === minor && cPatch <= patch);
}

/** What a run on a source's frames tells the topology: the events they decoded into, and those the encoder
 * for the sink left out. */
export function framedCounts(framed: FramedOutput): Pick<TransformResult, 'decoded' | 'encodeFailures'> {
  const { decoded, decodeErrors, encodeErrors } = framed;
  return {
    decoded: { count: decoded, errors: decodeErrors.map((error) => error.message) },
    encodeFailures:
      encodeErrors.length > 0 ? { count: encodeErrors.length, message: encodeErrors[0]!.message } : undefined,
  };
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
 * them in its `TransformResult`, and the main thread logs them through the component's logger with
 * `vrl_position` and without its rate limit (the stdlib already applied the call's `rate_limit_secs`). */
export class RemapLogs {
  private records: NonNullable<TransformResult['logs']> = [];

  readonly push = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string, position: number): void => {
    this.records.push({ level, message, position });
  };

  /** The calls since the last `take`. */
  take(): TransformResult['logs'] {
    if (this.records.length === 0) return undefined;
    const records = this.records;
    this.records = [];
    return records;
  }
}

/** What an instance takes from its component and the process; each defaults to the runtime's. */
export interface ProgramSettings {
  /** Overrides the zone the module was compiled with (a precompiled module runs in the pipeline's zone). */
  timezone?: string;
  /** The most the instance's memory may hold, in bytes. */
  memoryLimit?: number;
  /** The most a decompression function may produce (`--max-decompressed-size-bytes`). */
  maxDecompressedSize?: number;
}

/** An instance of a compiled program in the transform's thread. */
export async function instantiateProgram(
  module: WebAssembly.Module,
  logs: Pick<RemapLogs, 'push'>,
  settings: ProgramSettings = {},
): Promise<RemapInstance> {
  const info = readModuleInfo(module);
  const services = defaultServices(info);
  return instantiate(module, {
    functions: await loadJsFunctions(info.jsFunctions),
    services: {
      ...services,
      timezone: settings.timezone ?? services.timezone,
      maxDecompressedSize: settings.maxDecompressedSize ?? services.maxDecompressedSize,
      log: logs.push,
      metrics: threadMetricsSnapshot,
      enrichmentTables: threadEnrichmentTables,
    },
    memoryLimit: settings.memoryLimit,
  });
}
