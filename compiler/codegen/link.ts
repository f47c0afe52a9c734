// Linking: the stdlib and the generated program in one binaryen module. The stdlib's `svc.program` import
// becomes the generated function, every stdlib export but the ABI's is dropped (so unused stdlib code goes),
// the generated functions are optimized, and the module is emitted with its custom sections and validated
// (docs/abi.md §5, §7). REPL lines skip the optimization and the removal (see `link`).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as ast from '../ast.js';
import type { CheckResult } from '../check/index.js';
import { ABI_VERSION } from '../../abi/batch.js';
import { CONSTANTS_SECTION, DRIVER_EXPORTS, INFO_SECTION, type ModuleInfo } from '../../abi/module-info.js';
import { loadBinaryen, moduleFeatures, withBaselineWasm, type Binaryen, type BinaryenModule } from './binaryen.js';
import { STDLIB_URL } from '../build-files.js';
import type { StdlibSymbols } from './context.js';
import { generateProgram, INIT_FUNCTION, VARIABLES_FUNCTION } from './generate.js';
import { fieldsReadBeforeReplacingEvent } from './event-replacement.js';

/** Added for pipelines: the fused driver (it links the codec's decoders and encoders in). */
const FRAMED_EXPORTS = ['run_framed'];
/** Added in REPL mode, to carry variables between lines. */
const REPL_EXPORTS = ['value_decode', 'value_encode', 'value_encoded_size'];

export interface LinkInput {
  program: ast.Program;
  types: CheckResult;
  /** Recorded in the module's `svc` section. */
  info: Pick<ModuleInfo, 'source' | 'options' | 'compiler' | 'build' | 'warnings'>;
  /** Keep function names (for `--emit-wasm` text). */
  names?: boolean;
  /** Export `run_framed` too. */
  framed?: boolean;
  /** REPL mode: these variables come from earlier lines; export what the REPL's caller needs to move values. */
  predefined?: readonly string[];
  /** JS-backed functions the runtime provides. */
  jsFunctions: ReadonlySet<string>;
}

export interface Linked {
  wasm: Uint8Array;
  /** Text form, when asked for. */
  text?: string;
}

const stdlibPath = fileURLToPath(STDLIB_URL);
let stdlibBytes: Uint8Array | undefined;

/** The stdlib read into binaryen, its program import taken out and only the ABI's exports left. */
interface Stdlib {
  m: BinaryenModule;
  symbols: StdlibSymbols;
  /** The generated program function's name: the stdlib's calls reach it under this name. */
  programName: string;
  /** The stdlib's own functions, which the optimizer leaves alone and a REPL line leaves behind. */
  functions: Set<string>;
  framed: boolean;
}

/** REPL lines reuse one stdlib module: reading it into binaryen was most of each line's compile. */
let replStdlib: Stdlib | undefined;

/**
 * Links the program. Two tiers: REPL lines (`predefined`) are generated into the stdlib module kept from
 * the last line and emitted without optimization or removal of unused code; everything else gets a fresh
 * stdlib module, unused code removed and the generated functions optimized.
 */
export async function link(input: LinkInput, options: { text?: boolean } = {}): Promise<Linked> {
  const b = await loadBinaryen();
  return withBaselineWasm(() => linkWith(b, input, options));
}

function linkWith(b: Binaryen, input: LinkInput, options: { text?: boolean }): Linked {
  const framed = input.framed ?? false;
  b.setDebugInfo(input.names ?? false);
  if (!input.predefined) {
    const stdlib = readStdlib(b, framed, false);
    try {
      return emit(b, stdlib, input, options, true);
    } finally {
      stdlib.m.dispose();
    }
  }
  if (replStdlib?.framed !== framed) {
    replStdlib?.m.dispose();
    replStdlib = readStdlib(b, framed, true);
  }
  const stdlib = replStdlib;
  const globals = globalNames(b, stdlib.m);
  let linked: Linked;
  try {
    linked = emit(b, stdlib, input, options, false);
  } catch (error) {
    // Whatever the line left half-generated goes with the module; the next line reads a fresh one.
    replStdlib = undefined;
    stdlib.m.dispose();
    throw error;
  }
  // Back to the stdlib alone for the next line.
  for (const name of [INIT_FUNCTION, VARIABLES_FUNCTION]) stdlib.m.removeExport(name);
  for (const name of functionNames(b, stdlib.m)) if (!stdlib.functions.has(name)) stdlib.m.removeFunction(name);
  for (const name of globalNames(b, stdlib.m)) if (!globals.has(name)) stdlib.m.removeGlobal(name);
  return linked;
}

function readStdlib(b: Binaryen, framed: boolean, repl: boolean): Stdlib {
  stdlibBytes ??= readFileSync(stdlibPath);
  const m = (b.readBinary as (data: Uint8Array, features: number) => BinaryenModule)(stdlibBytes, moduleFeatures(b));
  const symbols = stdlibSymbols(b, m);
  const programName = removeProgramImport(b, m);
  for (let i = m.getNumExports() - 1; i >= 0; i--) {
    const name = b.getExportInfo(m.getExportByIndex(i)).name;
    if (name !== 'memory') m.removeExport(name);
  }
  for (const name of [...DRIVER_EXPORTS, ...(framed ? FRAMED_EXPORTS : []), ...(repl ? REPL_EXPORTS : [])])
    m.addFunctionExport(symbols.fn(name), name);
  return { m, symbols, programName, functions: functionNames(b, m), framed };
}

/** Generates the program into `stdlib.m` and emits the module, optimized or as generated. */
function emit(b: Binaryen, stdlib: Stdlib, input: LinkInput, options: { text?: boolean }, optimize: boolean): Linked {
  const { m, symbols } = stdlib;
  const generated = generateProgram(b, m, input.program, input.types, symbols, stdlib.programName, {
    predefined: input.predefined,
    jsFunctions: input.jsFunctions,
  });
  m.addFunctionExport(INIT_FUNCTION, INIT_FUNCTION);
  if (input.predefined) m.addFunctionExport(VARIABLES_FUNCTION, VARIABLES_FUNCTION);
  if (optimize) {
    b.setOptimizeLevel(3);
    b.setShrinkLevel(0);
    m.runPasses(['remove-unused-module-elements']);
    // Only the generated functions: asc already optimized the stdlib's at -O3, and optimizing the whole
    // module again cost three quarters of every compile for no measurable speed (S1: same events/s).
    for (const name of functionNames(b, m)) if (!stdlib.functions.has(name)) m.optimizeFunction(name);
  }
  const info: ModuleInfo = {
    abi: ABI_VERSION,
    ...input.info,
    jsFunctions: generated.jsFunctions,
    variables: generated.variables,
    eventReplacedAfterReading: fieldsReadBeforeReplacingEvent(input.program),
  };
  // Appended to the emitted bytes: binaryen cannot take a custom section out of the module a REPL reuses.
  const wasm = withCustomSections(m.emitBinary(), [
    [INFO_SECTION, Buffer.from(JSON.stringify(info))],
    [CONSTANTS_SECTION, generated.constants],
  ]);
  // V8's validator, not binaryen's: it decides what Node accepts and takes a millisecond where binaryen's
  // took a tenth of a cold compile.
  if (!WebAssembly.validate(wasm)) throw new Error('internal: the linked module does not validate');
  return options.text ? { wasm, text: m.emitText() } : { wasm };
}

/** `wasm` with custom sections appended (a custom section may stand anywhere after the header). */
function withCustomSections(wasm: Uint8Array, sections: readonly (readonly [string, Uint8Array])[]): Uint8Array {
  const parts: Uint8Array[] = [wasm];
  for (const [name, payload] of sections) {
    const nameBytes = Buffer.from(name, 'utf8');
    const content = Buffer.concat([unsignedLeb128(nameBytes.length), nameBytes, payload]);
    parts.push(Uint8Array.of(0), unsignedLeb128(content.length), content);
  }
  return Buffer.concat(parts);
}

function unsignedLeb128(n: number): Uint8Array {
  const bytes: number[] = [];
  do {
    const low = n & 0x7f;
    n = Math.floor(n / 128);
    bytes.push(n > 0 ? low | 0x80 : low);
  } while (n > 0);
  return Uint8Array.from(bytes);
}

/** Internal names of the stdlib's exports, and the addresses of its static null/true/false. */
function stdlibSymbols(b: Binaryen, m: BinaryenModule): StdlibSymbols {
  const internal = new Map<string, string>();
  for (let i = 0; i < m.getNumExports(); i++) {
    const info = b.getExportInfo(m.getExportByIndex(i));
    internal.set(info.name, info.value);
  }
  const staticAddress = (exportName: string): number => {
    const global = m.getGlobal(internal.get(exportName)!);
    return (b.getExpressionInfo(b.getGlobalInfo(global).init) as unknown as { value: number }).value;
  };
  return {
    fn(exportName) {
      const name = internal.get(exportName);
      if (name === undefined) throw new Error(`internal: the stdlib does not export ${exportName}`);
      return name;
    },
    has: (exportName) => internal.has(exportName),
    nullValue: staticAddress('value_null'),
    trueValue: staticAddress('value_true'),
    falseValue: staticAddress('value_false'),
  };
}

/** The names of the module's defined (not imported) functions. */
function functionNames(b: Binaryen, m: BinaryenModule): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const info = b.getFunctionInfo(m.getFunctionByIndex(i));
    if (!info.module) names.add(info.name);
  }
  return names;
}

/** The names of the module's globals. */
function globalNames(b: Binaryen, m: BinaryenModule): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < m.getNumGlobals(); i++) names.add(b.getGlobalInfo(m.getGlobalByIndex(i)).name);
  return names;
}

/**
 * Removes the stdlib's `svc.program` import; returns its internal name, which the generated function takes
 * so the stdlib's calls reach it.
 */
function removeProgramImport(b: Binaryen, m: BinaryenModule): string {
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const info = b.getFunctionInfo(m.getFunctionByIndex(i));
    if (info.module === 'svc' && info.base === 'program') {
      m.removeFunction(info.name);
      return info.name;
    }
  }
  throw new Error('internal: the stdlib does not import svc.program');
}
