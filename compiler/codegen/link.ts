// Linking: the stdlib and the generated program in one binaryen module. The stdlib's `svc.program` import
// becomes the generated function, every stdlib export but the ABI's is dropped (so unused stdlib code goes),
// the generated functions are optimized, and the module is validated and emitted with its custom sections
// (docs/abi.md §5, §7).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as ast from '../ast.js';
import type { CheckResult } from '../check/index.js';
import { ABI_VERSION } from '../../abi/batch.js';
import { CONSTANTS_SECTION, INFO_SECTION, type ModuleInfo } from '../../abi/module-info.js';
import { loadBinaryen, moduleFeatures, type Binaryen, type BinaryenModule } from './binaryen.js';
import { generateProgram, INIT_FUNCTION, VARIABLES_FUNCTION, type StdlibSymbols } from './generate.js';

/** Exports of a linked module besides `svc_init` (docs/abi.md §5). */
const ABI_EXPORTS = [
  'alloc', 'reset', 'run_batch', 'run_chain', 'run_condition', 'run_ndjson', 'output_len', 'errors_ptr', 'errors_len',
  'failures_ptr', 'failures_len', 'arena_used', 'runtime_state',
];
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
  /** REPL mode: these variables come from earlier lines; export what the host needs to move values. */
  predefined?: readonly string[];
  /** JS-backed functions the runtime provides. */
  jsFunctions: ReadonlySet<string>;
}

export interface Linked {
  wasm: Uint8Array;
  /** Text form, when asked for. */
  text?: string;
}

const stdlibPath = fileURLToPath(new URL('../../stdlib.wasm', import.meta.url));
let stdlibBytes: Uint8Array | undefined;

export async function link(input: LinkInput, options: { text?: boolean } = {}): Promise<Linked> {
  const b = await loadBinaryen();
  stdlibBytes ??= readFileSync(stdlibPath);
  const m = (b.readBinary as (data: Uint8Array, features: number) => BinaryenModule)(stdlibBytes, moduleFeatures(b));
  try {
    const symbols = stdlibSymbols(b, m);
    const programName = removeProgramImport(b, m);
    const stdlibFunctions = functionNames(b, m);
    const generated = generateProgram(b, m, input.program, input.types, symbols, programName, { predefined: input.predefined, jsFunctions: input.jsFunctions });
    for (let i = m.getNumExports() - 1; i >= 0; i--) {
      const name = b.getExportInfo(m.getExportByIndex(i)).name;
      if (name !== 'memory') m.removeExport(name);
    }
    for (const name of [...ABI_EXPORTS, ...(input.framed ? FRAMED_EXPORTS : [])]) m.addFunctionExport(symbols.fn(name), name);
    m.addFunctionExport(INIT_FUNCTION, INIT_FUNCTION);
    if (input.predefined) {
      for (const name of REPL_EXPORTS) m.addFunctionExport(symbols.fn(name), name);
      m.addFunctionExport(VARIABLES_FUNCTION, VARIABLES_FUNCTION);
    }

    b.setOptimizeLevel(3);
    b.setShrinkLevel(0);
    b.setDebugInfo(input.names ?? false);
    m.runPasses(['remove-unused-module-elements']);
    // Only the generated functions: asc already optimized the stdlib's at -O3, and optimizing the whole
    // module again cost three quarters of every compile for no measurable speed (S1: same events/s).
    for (const name of functionNames(b, m)) if (!stdlibFunctions.has(name)) m.optimizeFunction(name);
    if (!m.validate()) throw new Error('internal: the linked module does not validate');

    const info: ModuleInfo = { abi: ABI_VERSION, ...input.info, jsFunctions: generated.jsFunctions, variables: generated.variables };
    m.addCustomSection(INFO_SECTION, Buffer.from(JSON.stringify(info)));
    m.addCustomSection(CONSTANTS_SECTION, generated.constants);
    const wasm = m.emitBinary();
    return options.text ? { wasm, text: m.emitText() } : { wasm };
  } finally {
    m.dispose();
  }
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

/**
 * Removes the stdlib's `svc.program` import; returns its internal name, which the generated function takes
 * so the stdlib's calls reach it.
 */
/** The names of the module's defined (not imported) functions. */
function functionNames(b: Binaryen, m: BinaryenModule): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const info = b.getFunctionInfo(m.getFunctionByIndex(i));
    if (!info.module) names.add(info.name);
  }
  return names;
}

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
