// The compiler's entry: what the other packages use of it. What this module loads at once is light (the
// diagnostics, kinds, the binaryen tier switch); the compiler proper (ohm-js grammar, function registry,
// checker, code generator) comes with `loadCompiler()`, so that running a module compiled earlier never
// loads it.

export { CompileError, type Diagnostic, type Label, type Note, type Severity } from './diagnostics/diagnostic.js';
export { renderDiagnostics } from './diagnostics/render.js';
export { runBinaryenAtBaselineTier } from './codegen/binaryen.js';
export { ANY_BITS, describe, fromBits } from './types/kind.js';
export type { CheckContext } from './check/index.js';
export type { CheckedProgram, CompileOptions, CompiledModule, ModuleOptions } from './compile.js';
export type { FunctionDef } from './functions/define.js';

export type Compiler = typeof import('./compile.js');

/** The compiler proper: `checkProgram`, `emitModule`, `kindOfValue`, the function registry. */
export function loadCompiler(): Promise<Compiler> {
  return import('./compile.js');
}
