// The compiler driver: source text → parse → check → (later: codegen, link, emit). Each stage is a plain
// function over plain data; this module only sequences them and gathers diagnostics.

import { parse } from './parse/index.js';
import { check, type CheckResult } from './check/index.js';
import { CompileError, type Diagnostic } from './diagnostics/diagnostic.js';
import { renderDiagnostics } from './diagnostics/render.js';
import type * as ast from './ast.js';

export interface CompileOptions {
  /** Time zone for functions that take one implicitly (parse_timestamp, format_timestamp...). */
  timezone?: string;
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
export function checkProgram(source: string, options: CompileOptions = {}): CheckedProgram {
  const parsed = parse(source);
  if (!parsed.program || parsed.diagnostics.length > 0) {
    throw new CompileError(renderDiagnostics(source, parsed.diagnostics), parsed.diagnostics, []);
  }
  const types = check(parsed.program);
  if (types.errors.length > 0) {
    throw new CompileError(renderDiagnostics(source, types.diagnostics), types.errors, types.warnings);
  }
  return { source, options, ast: parsed.program, types, warnings: types.warnings };
}
