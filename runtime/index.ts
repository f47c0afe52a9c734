// The library API of svc's remap engine (see ../shared/conformance/README.md for the contract).

import { checkProgram, type CheckedProgram, type CompileOptions } from '../compiler/compile.js';

export { CompileError } from '../compiler/diagnostics/diagnostic.js';
export type { Diagnostic, Label, Note, Severity } from '../compiler/diagnostics/diagnostic.js';
export { renderDiagnostics } from '../compiler/diagnostics/render.js';
export type { CompileOptions, CheckedProgram };

/**
 * Compiles a remap program. Resolves with the checked program (its `warnings` included); rejects with a
 * `CompileError` whose `.diagnostics` lists the errors and whose `.message` is the rendered text.
 */
export async function compile(source: string, options: CompileOptions = {}): Promise<CheckedProgram> {
  return checkProgram(source, options);
}
