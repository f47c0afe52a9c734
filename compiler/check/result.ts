// What the checker hands the code generator: plain data about the checked program.

import type * as ast from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ArgInfo, CallInfo, FunctionDef, Parameter } from '../functions/define.js';
import type { Kind } from '../types/kind.js';

export interface TypeDef {
  kind: Kind;
  fallible: boolean;
}

/** One argument of a resolved call: what the checker knows of it, and its expression. */
export interface ResolvedArgument extends ArgInfo {
  expr: ast.Expr;
}

/**
 * A call as the checker resolved it, once: its function, its arguments bound to parameters, their kinds and
 * constants. It is also the `CallInfo` the definition's rules saw.
 */
export interface ResolvedCall extends CallInfo {
  def: FunctionDef;
  args: Readonly<Record<string, ResolvedArgument | undefined>>;
  /** The parameters of the given arguments in source order: the order the arguments run in. */
  order: readonly Parameter[];
}

export interface CheckResult {
  /** Errors and warnings in the order they were found. */
  diagnostics: Diagnostic[];
  /** Errors; compilation fails when there is any. */
  errors: Diagnostic[];
  /** Warnings (E620, E801, E900). */
  warnings: Diagnostic[];
  /** Type of each expression that checked. */
  types: Map<ast.Expr, TypeDef>;
  /** Each call that checked, resolved. */
  calls: Map<ast.Call, ResolvedCall>;
  /** Kind of the event after the program, as far as known. */
  target: Kind;
}
