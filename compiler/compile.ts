// The compiler driver: source text → parse → check → codegen + link (emit). Each stage is a plain
// function over plain data; this module only sequences them and gathers diagnostics. Other packages reach
// it through index.ts (`loadCompiler`).

import { parse } from './parse/index.js';
import { check, type CheckContext, type CheckResult } from './check/index.js';
import { CompileError, diagnostic, primary, type Diagnostic } from './diagnostics/diagnostic.js';
import { renderDiagnostics } from './diagnostics/render.js';
import { isExactly, K, NEVER, NULL } from './types/kind.js';
import type * as ast from './ast.js';

/** For the REPL: the kinds of the event and variables that earlier lines left. */
export { kindOfValue } from './types/value-kind.js';
/** The function registry (the REPL's help). */
export { FUNCTIONS, lookupFunction } from './functions/index.js';

export interface CompileOptions {
  /** Time zone for functions that take one implicitly (parse_timestamp, format_timestamp...). */
  timezone?: string;
  /** The program is a condition (`filter`, `route`, `exclude`): its result must be a boolean. */
  condition?: boolean;
  /** Also export `run_framed` (docs/abi.md §2.4): decode, program and encode in one call, for pipelines. */
  framed?: boolean;
  /** The enrichment tables the program may look up, when known (a pipeline's): another table name is a
   * compile error, as in Vector. Unset: any name compiles and the lookup fails at run time without it. */
  enrichmentTables?: readonly string[];
  /** The event (`.`) is read-only: assigning to it or deleting from it is E315, as VRL's read-only paths
   * (`http_server`'s custom auth compiles its program so; metadata stays writable). */
  readOnlyEvent?: boolean;
}

export interface CheckedProgram {
  source: string;
  options: CompileOptions;
  ast: ast.Program;
  types: CheckResult;
  /** Warnings (E620, E801, E900); they do not stop compilation. */
  warnings: Diagnostic[];
}

/** Runs the front end; throws `CompileError` (diagnostics and their rendered text) when the program has errors. */
export function checkProgram(source: string, options: CompileOptions = {}, context: CheckContext = {}): CheckedProgram {
  const parsed = parse(source);
  if (!parsed.program || parsed.diagnostics.length > 0) {
    throw new CompileError(renderDiagnostics(source, parsed.diagnostics), parsed.diagnostics, []);
  }
  const types = check(parsed.program, {
    ...context,
    enrichmentTables: options.enrichmentTables,
    readOnlyEvent: options.readOnlyEvent,
  });
  if (types.errors.length > 0) {
    throw new CompileError(renderDiagnostics(source, types.diagnostics), types.errors, types.warnings);
  }
  const last = parsed.program.exprs.at(-1);
  const result = last === undefined ? NULL : (types.types.get(last)?.kind ?? NEVER);
  if (options.condition && !isExactly(result, K.Boolean)) {
    // Vector's message; it is not a diagnostic there either.
    throw new CompileError('VRL conditions must return a boolean.', [], types.warnings);
  }
  return { source, options, ast: parsed.program, types, warnings: types.warnings };
}

export interface ModuleOptions {
  /** Keep function names in the binary (for reading its text form). */
  names?: boolean;
  /** Also return the module's text form. */
  text?: boolean;
  /** REPL mode: variables defined by earlier lines, in slot order (see `CheckContext.variables`). */
  predefined?: readonly string[];
  /** JS-backed functions the runtime that will run the module provides. */
  jsFunctions?: ReadonlySet<string>;
  /** Build id of the compiler and stdlib, recorded in the module info (the cache checks it). */
  build?: string;
}

export interface CompiledModule {
  wasm: Uint8Array;
  text?: string;
}

/**
 * Back end: code generation and linking with the stdlib into one optimized module. Loads binaryen on
 * first use. A function without an implementation in this build is reported as E610 on its call.
 */
export async function emitModule(
  checked: CheckedProgram,
  compiler: string,
  options: ModuleOptions = {},
): Promise<CompiledModule> {
  const { link } = await import('./codegen/link.js');
  const { MissingImplementation } = await import('./codegen/context.js');
  try {
    return await link(
      {
        program: checked.ast,
        types: checked.types,
        info: {
          source: checked.source,
          options: checked.options,
          compiler,
          build: options.build,
          warnings: checked.warnings,
        },
        names: options.names,
        framed: checked.options.framed,
        predefined: options.predefined,
        jsFunctions: options.jsFunctions ?? new Set(),
      },
      { text: options.text },
    );
  } catch (error) {
    if (!(error instanceof MissingImplementation)) throw error;
    const d = diagnostic(610, 'function compilation error', [
      primary(error.span, 'this function has no implementation in this build'),
    ]);
    throw new CompileError(renderDiagnostics(checked.source, [d]), [d], []);
  }
}
