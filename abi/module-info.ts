// The `svc` custom section of a compiled module (docs/abi.md §7): what the compiler records there and the
// runtime reads back, and the name of the section that carries the program's constants.

/** Name of the custom section holding the module info (UTF-8 JSON). */
export const INFO_SECTION = 'svc';
/** Encoded constants of the program; `svc_init` decodes them in place, so they stay in memory. */
export const CONSTANTS_SECTION = 'svc.constants';

/** What every linked module exports besides `memory` and `svc_init` (docs/abi.md §5): the drivers and their results. */
export const DRIVER_EXPORTS = [
  'alloc',
  'reset',
  'run_batch',
  'run_chain',
  'run_condition',
  'run_ndjson',
  'output_len',
  'errors_ptr',
  'errors_len',
  'ndjson_lines',
  'failures_ptr',
  'failures_len',
  'arena_used',
  'runtime_state',
] as const;

/** The `svc` custom section. */
export interface ModuleInfo {
  abi: number;
  /** Version of the svc that compiled the module. */
  compiler: string;
  /** Build id of that svc's compiler and stdlib (`buildId()`); absent in modules of older builds. */
  build?: string;
  source: string;
  /** The compile options. */
  options: { timezone?: string };
  /** JS-backed functions, in the order of their numbers in `svc_js.call`. */
  jsFunctions: string[];
  /** Compile warnings, so a cached module reports them without compiling again. */
  warnings?: readonly unknown[];
  /** Top-level variables and their slots. */
  variables?: Array<[name: string, slot: number]>;
  /** When the program's first expression replaces the whole event: the event fields it reads before
   * (compiler/codegen/event-replacement.ts). */
  eventReplacedAfterReading?: string[];
}

/** Reads a compiled module's `svc` custom section; throws when the module has none or it is malformed. */
export function readModuleInfo(module: Uint8Array | WebAssembly.Module): ModuleInfo {
  const compiled = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
  const [section] = WebAssembly.Module.customSections(compiled, INFO_SECTION);
  if (!section) throw new Error(`not a compiled remap module: it has no "${INFO_SECTION}" custom section`);
  let info: Partial<ModuleInfo>;
  try {
    info = JSON.parse(Buffer.from(section).toString('utf8')) as Partial<ModuleInfo>;
  } catch (error) {
    throw new Error(`the module's "${INFO_SECTION}" section is not valid JSON: ${(error as Error).message}`);
  }
  const malformed = (what: string) => new Error(`the module's "${INFO_SECTION}" section is malformed: ${what}`);
  if (typeof info !== 'object' || info === null) throw malformed('not an object');
  if (typeof info.abi !== 'number') throw malformed('no "abi" version');
  if (typeof info.compiler !== 'string') throw malformed('no "compiler" version');
  if (typeof info.source !== 'string') throw malformed('no "source"');
  if (typeof info.options !== 'object' || info.options === null) throw malformed('no "options" object');
  if (!Array.isArray(info.jsFunctions) || !info.jsFunctions.every((name) => typeof name === 'string')) {
    throw malformed('"jsFunctions" is not a list of names');
  }
  return info as ModuleInfo;
}
