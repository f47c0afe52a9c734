// What per-function lowering (builtins.ts) may use of the code generator: a narrow view of it, so that the
// generator's state (scopes, handlers, the function being generated) stays its own.

import type * as ast from '../ast.js';
import type { ResolvedCall } from '../check/result.js';
import type { Kind } from '../types/kind.js';
import type { Binaryen, BinaryenModule, ExpressionRef } from './binaryen.js';
import type { ConstantPool } from './constants.js';

/** Where the generated code finds the stdlib: export name → internal function name, and static values. */
export interface StdlibSymbols {
  fn(exportName: string): string;
  has(exportName: string): boolean;
  /** Addresses of the static null/true/false records. */
  readonly nullValue: number;
  readonly trueValue: number;
  readonly falseValue: number;
}

export interface CodegenContext {
  readonly b: Binaryen;
  readonly m: BinaryenModule;
  readonly std: StdlibSymbols;
  readonly pool: ConstantPool;
  /** Kind the checker gave an expression. */
  kindOf(e: ast.Expr): Kind | undefined;
  /** Code that yields the expression's value (failures branch to the handler). */
  expr(e: ast.Expr): ExpressionRef;
  /** A call of the stdlib export `exportName`. */
  call(exportName: string, args: ExpressionRef[], result?: number): ExpressionRef;
  /** A call of the function's own implementation (its JS function or stdlib export) with these argument values. */
  implementation(e: ast.Call, call: ResolvedCall, operands: ExpressionRef[]): ExpressionRef;
  /** A fresh i32 local of the function being generated. */
  local(): number;
  /** A fresh label in the function being generated. */
  label(what: string): string;
  /** The decoded constant number `k` of the pool. */
  constant(k: number): ExpressionRef;
  bytesConstant(text: string): ExpressionRef;
  pathDescriptor(path: readonly ast.PathSegment[]): ExpressionRef;
  /** The value a query starts from: the event, the metadata, a variable or an expression. */
  queryRoot(target: ast.QueryTarget): ExpressionRef;
  query(e: ast.Query): ExpressionRef;
  /** Address of the cell a write goes through, or undefined for an expression target. */
  cellOf(target: ast.QueryTarget): ExpressionRef | undefined;
  storeSlot(slot: number, value: ExpressionRef): ExpressionRef;
  /** `value`, or a branch to the handler (after `onError`) when it is 0. */
  checked(value: ExpressionRef, onError?: ExpressionRef[]): ExpressionRef;
  /** Branch to the innermost error handler (the message is pending). */
  toHandler(): ExpressionRef;
  isTrue(value: ExpressionRef): ExpressionRef;
  boolValue(condition: ExpressionRef): ExpressionRef;
  /** A closure's body in a new scope, its parameters bound to fresh slots; its `return` leaves the body. */
  /** `resultUsed`: false when the caller drops the body's value. */
  closureBody(closure: ast.Closure, resultUsed?: boolean): { slots: number[]; body: ExpressionRef };
  /**
   * Adds a function `(i32 × params) → i32` of its own, named after `what`, and returns its name: `body(name)`
   * builds its statements (as if generating that function) and its error exit returns 0.
   */
  helperFunction(what: string, params: number, body: (name: string) => ExpressionRef[]): string;
}

/** A program uses a function whose implementation this build does not have. */
export class MissingImplementation extends Error {
  constructor(
    readonly functionName: string,
    readonly span: ast.Span,
  ) {
    super(`function "${functionName}" has no implementation in this build`);
  }
}
