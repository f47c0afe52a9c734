// Code generation: a checked remap program → binaryen functions added to a module that already holds the
// stdlib. Values are i32 addresses (docs/abi.md §8); an operation that fails yields 0 and the generated
// code branches to the innermost error handler (`??`, `ok, err =`, or the function's uncaught exit).

import type * as ast from '../ast.js';
import type { CheckResult } from '../check/index.js';
import { K } from '../types/kind.js';
import { kindDebugInfo } from '../types/debug-info.js';
import type { Constant, FunctionDef, Parameter } from '../functions/define.js';
import { ConstantPool } from './constants.js';
import { ProgramKind, strftimeProgram } from '../../abi/strftime-program.js';
import { Outcome } from '../../abi/wire/batch.js';
import { Tag } from '../../abi/wire/values.js';
import type { Binaryen, BinaryenModule, ExpressionRef } from './binaryen.js';

/** Where the generated code finds the stdlib: export name → internal function name, and static values. */
export interface StdlibSymbols {
  fn(exportName: string): string;
  has(exportName: string): boolean;
  /** Addresses of the static null/true/false records. */
  readonly nullValue: number;
  readonly trueValue: number;
  readonly falseValue: number;
}

export interface Generated {
  constants: Uint8Array;
  jsFunctions: string[];
  /** Top-level variables and their slots (the REPL reads them back after a run). */
  variables: Array<[name: string, slot: number]>;
}

export interface GenerateOptions {
  /** JS-backed functions the runtime provides (others are reported as missing). */
  jsFunctions?: ReadonlySet<string>;
  /**
   * Variables defined before the program starts, given slots 0… in this order; their slots keep what the
   * host stored in them instead of being reset (the REPL carries variables between lines).
   */
  predefined?: readonly string[];
}

/** Internal names of what the generator adds to the module. */
export const INIT_FUNCTION = 'svc_init';
/** Returns the address of the variable slots (exported for the REPL). */
export const VARIABLES_FUNCTION = 'svc_variables';
const BLOB = 'svc_blob';
const CONSTS = 'svc_consts';
const VARS = 'svc_vars';

/** Prefix of the part functions a long program is split into. */
const PART_FUNCTION = 'svc_part';
/** Top-level statements per part function. */
const STATEMENTS_PER_PART = 128;
/** What a part returns when its statements all ran: no value lives at address 1. */
const PART_DONE = 1;


/** Locals and labels of the wasm function being generated. */
class FunctionState {
  readonly locals: number[] = [];
  private labels = 0;
  /** Label of the block whose end is the function's error exit. */
  readonly uncaught: string;

  constructor(readonly params: number, private readonly i32: number) {
    this.uncaught = this.label('uncaught');
  }

  local(): number {
    this.locals.push(this.i32);
    return this.params + this.locals.length - 1;
  }
  label(what: string): string {
    return `${what}${this.labels++}`;
  }
}

type Scope = Map<string, number>;

export function generateProgram(
  b: Binaryen,
  m: BinaryenModule,
  program: ast.Program,
  types: CheckResult,
  std: StdlibSymbols,
  /** Internal name the program function must have (the stdlib calls it by this name). */
  programName: string,
  options: GenerateOptions = {},
): Generated {
  return new Generator(b, m, types, std, options.jsFunctions ?? new Set()).program(program, programName, options.predefined ?? []);
}

class Generator {
  private readonly i32: number;
  private readonly pool = new ConstantPool();
  private readonly jsFunctions: string[] = [];
  private slots = 0;
  private scopes: Scope[] = [new Map()];
  private fn!: FunctionState;
  /** Innermost error handler label, or undefined for the function's uncaught exit. */
  private handler: string | undefined;
  private helpers = 0;
  /** Label of the block around the closure body being generated: where its `return` goes. */
  private closureExit: string | undefined;

  constructor(
    private readonly b: Binaryen,
    private readonly m: BinaryenModule,
    private readonly types: CheckResult,
    private readonly std: StdlibSymbols,
    private readonly hostAvailable: ReadonlySet<string>,
  ) {
    this.i32 = b.i32;
  }

  program(program: ast.Program, name: string, predefined: readonly string[]): Generated {
    const m = this.m;
    const i32 = this.i32;
    for (const variable of predefined) this.defineSlot(variable);
    // Long programs run as a series of part functions: binaryen's optimizer takes time superlinear in a
    // function's size (its locals), so bounded parts keep linking linear in the program's length.
    const parts: ExpressionRef[] = [];
    for (let start = 0; start + STATEMENTS_PER_PART < program.exprs.length; start += STATEMENTS_PER_PART) {
      const part = `${PART_FUNCTION}${parts.length}`;
      this.statementsFunction(part, program.exprs.slice(start, start + STATEMENTS_PER_PART), true);
      parts.push(m.call(part, [], i32));
    }
    const last = program.exprs.slice(parts.length * STATEMENTS_PER_PART);
    // Variables start as null, except those an earlier REPL line left.
    const slotReset = (): ExpressionRef[] => {
      const reset: ExpressionRef[] = [];
      for (let i = predefined.length; i < this.slots; i++) reset.push(this.storeSlot(i, this.constI32(this.std.nullValue)));
      return reset;
    };
    if (!parts.length) {
      this.statementsFunction(name, last, false, slotReset);
    } else {
      const run = `${PART_FUNCTION}${parts.length}`;
      this.statementsFunction(run, last, false);
      // A part that did not finish (error, abort or `return`) gives the program's result.
      const result = 0;
      m.addFunction(name, this.b.none, i32, [i32], m.block(null, [
        ...slotReset(),
        ...parts.map((call) => m.if(m.i32.ne(m.local.tee(result, call, i32), m.i32.const(PART_DONE)), m.return(m.local.get(result, i32)))),
        m.return(m.call(run, [], i32)),
      ], this.b.none));
    }
    this.init();
    return { constants: this.pool.finish(), jsFunctions: this.jsFunctions, variables: [...this.scopes[0]!] };
  }

  /**
   * A function running top-level statements: it returns the last one's value (`PART_DONE` for a `part`), or
   * 0 once the outcome is set (error, abort); a `return` statement returns its value from it. The prologue
   * is made after the statements, which allocate the variable slots.
   */
  private statementsFunction(name: string, exprs: readonly ast.Expr[], part: boolean, prologue: () => ExpressionRef[] = () => []): void {
    const m = this.m;
    this.fn = new FunctionState(0, this.i32);
    const result = this.fn.local();
    const body = part
      ? m.block(null, [...exprs.map((e) => m.drop(this.expr(e, false))), this.constI32(PART_DONE)], this.i32)
      : this.sequence(exprs);
    m.addFunction(name, this.b.none, this.i32, this.fn.locals, m.block(null, [
      ...prologue(),
      m.block(this.fn.uncaught, [m.local.set(result, body), m.return(m.local.get(result, this.i32))]),
      this.call('set_outcome', [m.i32.const(Outcome.Error)], this.b.none),
      m.return(m.i32.const(0)),
    ], this.b.none));
  }

  /** `svc_init(blob)`: decode the constants, reserve variable slots, keep both across arena resets. */
  private init(): void {
    const m = this.m;
    const i32 = this.i32;
    for (const name of [BLOB, CONSTS, VARS]) m.addGlobal(name, i32, true, m.i32.const(0));
    const decode = this.pool.values.map((offset, k) => m.i32.store(k * 4, 4, m.global.get(CONSTS, i32),
      this.call('value_share', [this.call('value_decode', [m.i32.add(m.global.get(BLOB, i32), m.i32.const(offset))])])));
    m.addFunction(INIT_FUNCTION, this.b.createType([i32]), this.b.none, [], m.block(null, [
      m.global.set(BLOB, m.local.get(0, i32)),
      m.global.set(CONSTS, this.call('alloc', [m.i32.const(Math.max(4, this.pool.values.length * 4))])),
      ...decode,
      m.global.set(VARS, this.call('alloc', [m.i32.const(Math.max(4, this.slots * 4))])),
      this.call('arena_set_floor', [], this.b.none),
    ], this.b.none));
    m.addFunction(VARIABLES_FUNCTION, this.b.none, i32, [], m.global.get(VARS, i32));
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private call(exportName: string, args: ExpressionRef[], result = this.i32): ExpressionRef {
    return this.m.call(this.std.fn(exportName), args, result);
  }

  private constI32(n: number): ExpressionRef {
    return this.m.i32.const(n);
  }

  /** The decoded constant number `k` of the pool. */
  private constant(k: number): ExpressionRef {
    return this.m.i32.load(k * 4, 4, this.m.global.get(CONSTS, this.i32));
  }

  private bytesConstant(text: string): ExpressionRef {
    return this.constant(this.pool.bytes(text));
  }

  private pathDescriptor(path: readonly ast.PathSegment[]): ExpressionRef {
    return this.m.i32.add(this.m.global.get(BLOB, this.i32), this.constI32(this.pool.path(path)));
  }

  private slotAddress(slot: number): ExpressionRef {
    return this.m.i32.add(this.m.global.get(VARS, this.i32), this.constI32(slot * 4));
  }
  private loadSlot(slot: number): ExpressionRef {
    return this.m.i32.load(slot * 4, 4, this.m.global.get(VARS, this.i32));
  }
  private storeSlot(slot: number, value: ExpressionRef): ExpressionRef {
    return this.m.i32.store(slot * 4, 4, this.m.global.get(VARS, this.i32), value);
  }

  /** The slot of a variable in scope, or a new one in the innermost scope. */
  private slotOf(name: string): number {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i]!.get(name);
      if (found !== undefined) return found;
    }
    const slot = this.slots++;
    this.scopes[this.scopes.length - 1]!.set(name, slot);
    return slot;
  }

  /** A fresh slot bound to `name` in the innermost scope (closure parameters). */
  private defineSlot(name: string): number {
    const slot = this.slots++;
    this.scopes[this.scopes.length - 1]!.set(name, slot);
    return slot;
  }

  private inScope<T>(body: () => T): T {
    this.scopes.push(new Map());
    try {
      return body();
    } finally {
      this.scopes.pop();
    }
  }

  /** Branch to the innermost error handler (the message is pending). */
  private toHandler(): ExpressionRef {
    return this.m.br(this.handler ?? this.fn.uncaught);
  }

  /** `value`, or a branch to the handler (after `onError`) when it is 0. */
  private checked(value: ExpressionRef, onError: ExpressionRef[] = []): ExpressionRef {
    const m = this.m;
    const t = this.fn.local();
    return m.block(null, [
      m.if(m.i32.eqz(m.local.tee(t, value, this.i32)), m.block(null, [...onError, this.toHandler()])),
      m.local.get(t, this.i32),
    ], this.i32);
  }

  /**
   * The result of a generated closure function: 0 means its body failed (message pending) or aborted;
   * an abort leaves this function too, anything else goes to the handler.
   */
  private checkedHelper(value: ExpressionRef): ExpressionRef {
    const m = this.m;
    return this.checked(value, [
      m.if(this.call('current_outcome', []), m.return(m.i32.const(0))),
    ]);
  }

  private isTrue(value: ExpressionRef): ExpressionRef {
    return this.m.i32.eq(value, this.constI32(this.std.trueValue));
  }

  private boolValue(condition: ExpressionRef): ExpressionRef {
    return this.m.select(condition, this.constI32(this.std.trueValue), this.constI32(this.std.falseValue));
  }

  /** Runs the statements in order; the value is the last one's (null when there are none). */
  private sequence(exprs: readonly ast.Expr[]): ExpressionRef {
    const m = this.m;
    if (exprs.length === 0) return this.constI32(this.std.nullValue);
    const children = exprs.map((e, i) => (i === exprs.length - 1 ? this.expr(e) : m.drop(this.expr(e, false))));
    return children.length === 1 ? children[0]! : m.block(null, children, this.i32);
  }

  // ---- expressions -----------------------------------------------------------------------------------

  /** Code that yields the expression's value (never 0: failures branch to the handler). */
  private expr(e: ast.Expr, used = true): ExpressionRef {
    switch (e.type) {
      case 'Literal': return this.constant(this.pool.value(e.value));
      case 'Template': return this.template(e);
      case 'Array': return this.arrayLiteral(e);
      case 'Object': return this.objectLiteral(e);
      case 'Variable': return this.call('value_share', [this.loadSlot(this.slotOf(e.name))]);
      case 'Query': return this.query(e);
      case 'Call': return this.callExpr(e);
      case 'Unary': return this.checked(this.call('op_not', [this.expr(e.operand)]));
      case 'Binary': return this.binary(e);
      case 'Assign': return this.assign(e, used);
      case 'If': return this.ifExpr(e);
      case 'Block': return this.inScope(() => this.sequence(e.exprs));
      case 'Group': return this.expr(e.expr, used);
      case 'Sequence': return this.sequence(e.exprs);
      case 'Abort': return this.abort(e);
      // Inside a closure `return` ends the closure's run with the value; elsewhere, the program's.
      case 'Return': return this.closureExit
        ? this.m.br(this.closureExit, undefined, this.expr(e.value))
        : this.m.return(this.expr(e.value));
    }
  }

  private template(e: ast.Template): ExpressionRef {
    const parts = e.parts.map((p) => (typeof p === 'string' ? this.bytesConstant(p) : this.expr(p)));
    if (parts.length === 0) return this.bytesConstant('');
    return parts.slice(1).reduce((acc, part) => this.checked(this.call('op_add', [acc, part])), parts[0]!);
  }

  private arrayLiteral(e: ast.ArrayLit): ExpressionRef {
    const constant = this.constantOf(e);
    if (constant !== undefined) return this.constant(constant);
    const m = this.m;
    const a = this.fn.local();
    return m.block(null, [
      m.local.set(a, this.call('new_array', [this.constI32(e.items.length)])),
      ...e.items.map((item) => this.call('array_push', [m.local.get(a, this.i32), this.expr(item)], this.b.none)),
      m.local.get(a, this.i32),
    ], this.i32);
  }

  private objectLiteral(e: ast.ObjectLit): ExpressionRef {
    const constant = this.constantOf(e);
    if (constant !== undefined) return this.constant(constant);
    const m = this.m;
    const o = this.fn.local();
    const key = this.fn.local();
    return m.block(null, [
      m.local.set(o, this.call('new_object', [this.constI32(e.entries.length)])),
      ...e.entries.map((entry) => {
        const value = this.fn.local();
        return m.block(null, [
          m.local.set(value, this.expr(entry.value)),
          m.local.set(key, this.bytesConstant(entry.key)),
          this.call('object_set', [
            m.local.get(o, this.i32),
            this.call('bytes_ptr', [m.local.get(key, this.i32)]),
            this.call('bytes_len', [m.local.get(key, this.i32)]),
            m.local.get(value, this.i32),
          ], this.b.none),
        ]);
      }),
      m.local.get(o, this.i32),
    ], this.i32);
  }

  /** Pool index of a literal container whose items are all literals. */
  private constantOf(e: ast.Expr): number | undefined {
    const c = literalConstant(e);
    return c === undefined ? undefined : this.pool.value(c);
  }

  private query(e: ast.Query): ExpressionRef {
    const root = this.queryRoot(e.target);
    if (e.path.length === 0) return this.call('value_share', [root]);
    return this.call('path_get', [root, this.pathDescriptor(e.path)]);
  }

  private queryRoot(target: ast.QueryTarget): ExpressionRef {
    const m = this.m;
    switch (target.kind) {
      case 'event': return m.i32.load(0, 4, this.call('event_cell', []));
      case 'metadata': return m.i32.load(0, 4, this.call('meta_cell', []));
      case 'variable': return this.loadSlot(this.slotOf(target.name));
      case 'expr': return this.expr(target.expr);
    }
  }

  /** Address of the cell an assignment or `del` writes through, or undefined for expression targets. */
  private cellOf(target: ast.QueryTarget): ExpressionRef | undefined {
    switch (target.kind) {
      case 'event': return this.call('event_cell', []);
      case 'metadata': return this.call('meta_cell', []);
      case 'variable': return this.slotAddress(this.slotOf(target.name));
      case 'expr': return undefined;
    }
  }

  private binary(e: ast.Binary): ExpressionRef {
    const m = this.m;
    switch (e.op) {
      case '??': {
        const done = this.fn.label('coalesced');
        const failed = this.fn.label('failed');
        const outer = this.handler;
        this.handler = failed;
        const left = this.expr(e.left);
        this.handler = outer;
        return m.block(done, [
          m.block(failed, [m.br(done, undefined, left)]),
          this.expr(e.right),
        ], this.i32);
      }
      case '||': {
        const l = this.fn.local();
        return m.if(this.call('is_falsy', [m.local.tee(l, this.expr(e.left), this.i32)]),
          this.expr(e.right), m.local.get(l, this.i32));
      }
      case '&&': {
        const l = this.fn.local();
        return m.if(this.call('is_falsy', [m.local.tee(l, this.expr(e.left), this.i32)]),
          this.constI32(this.std.falseValue),
          this.checked(this.call('op_and', [m.local.get(l, this.i32), this.expr(e.right)])));
      }
      default:
        return this.checked(this.call(OPERATORS[e.op], [this.expr(e.left), this.expr(e.right)]));
    }
  }

  private ifExpr(e: ast.If): ExpressionRef {
    // The predicate first: the variables it assigns get their slots in the enclosing scope.
    const predicate = this.isTrue(this.expr(e.predicate));
    const then = this.expr(e.then);
    const otherwise = e.else ? this.expr(e.else) : this.constI32(this.std.nullValue);
    return this.m.if(predicate, then, otherwise);
  }

  private abort(e: ast.Abort): ExpressionRef {
    const m = this.m;
    const message = e.message ? this.expr(e.message) : this.bytesConstant('aborted');
    return m.block(null, [
      m.drop(this.call('fail_value', [message])),
      this.call('set_outcome', [m.i32.const(Outcome.Aborted)], this.b.none),
      m.return(m.i32.const(0)),
    ], this.b.unreachable);
  }

  // ---- assignment ------------------------------------------------------------------------------------

  private assign(e: ast.Assign, used: boolean): ExpressionRef {
    const m = this.m;
    const value = this.fn.local();
    const rhs = (): ExpressionRef => {
      const v = this.expr(e.value);
      if (e.op === '=') return v;
      return this.checked(this.call('op_merge', [this.readTarget(e.target), v]));
    };
    const stored = (): ExpressionRef => {
      const v = m.local.get(value, this.i32);
      return used ? this.call('value_share', [v]) : v;
    };
    if (!e.errorTarget) {
      return m.block(null, [
        m.local.set(value, rhs()),
        this.writeTarget(e.target, stored()),
        m.local.get(value, this.i32),
      ], this.i32);
    }
    // `ok, err = expr`: on success err is null; on failure ok gets the default of expr's kind.
    const done = this.fn.label('assigned');
    const failed = this.fn.label('failed');
    const outer = this.handler;
    this.handler = failed;
    const attempt = rhs();
    this.handler = outer;
    return m.block(null, [
      m.block(done, [
        m.block(failed, [
          m.local.set(value, attempt),
          this.writeTarget(e.errorTarget, this.constI32(this.std.nullValue)),
          this.writeTarget(e.target, stored()),
          m.br(done),
        ]),
        this.writeTarget(e.errorTarget, this.call('error_message', [])),
        m.local.set(value, this.defaultValue(e.value)),
        this.writeTarget(e.target, stored()),
      ]),
      m.local.get(value, this.i32),
    ], this.i32);
  }

  /** VRL's default value of an expression's kind: "" for strings, 0, 0.0, false, [], {}; else null. */
  private defaultValue(e: ast.Expr): ExpressionRef {
    const bits = this.types.types.get(e)?.kind.bits ?? 0;
    const defaults: Array<[number, ast.LiteralValue | 'array' | 'object']> = [
      [K.Bytes, { kind: 'string', value: '' }],
      [K.Integer, { kind: 'integer', value: 0n }],
      [K.Float, { kind: 'float', value: 0 }],
      [K.Boolean, { kind: 'boolean', value: false }],
      [K.Array, 'array'],
      [K.Object, 'object'],
    ];
    for (const [bit, value] of defaults) {
      if (bits !== bit) continue;
      if (value === 'array') return this.constant(this.pool.value({ kind: 'array', items: [] }));
      if (value === 'object') return this.constant(this.pool.value({ kind: 'object', fields: new Map() }));
      return this.constant(this.pool.value(value));
    }
    return this.constI32(this.std.nullValue);
  }

  private readTarget(target: ast.AssignTarget): ExpressionRef {
    return target.kind === 'noop' ? this.constI32(this.std.nullValue) : this.query(target.query);
  }

  private writeTarget(target: ast.AssignTarget, value: ExpressionRef): ExpressionRef {
    const m = this.m;
    if (target.kind === 'noop') return m.drop(value);
    const q = target.query;
    if (q.target.kind === 'variable' && q.path.length === 0) return this.storeSlot(this.slotOf(q.target.name), value);
    const cell = this.cellOf(q.target);
    if (!cell) return m.drop(value);
    // Fails only on an index too large to pad the array to (stdlib-as/path.ts).
    return m.if(m.i32.eqz(this.call('path_set', [cell, this.pathDescriptor(q.path), value])), this.toHandler());
  }

  // ---- function calls --------------------------------------------------------------------------------

  /**
   * A function call. As in VRL, an error raised anywhere inside it (its own, an argument's, its closure's)
   * leaves it with the call's prefix: `function call error for "f" at (0:9): <inner message>`.
   */
  private callExpr(e: ast.Call): ExpressionRef {
    const m = this.m;
    const done = this.fn.label('called');
    const failed = this.fn.label('callFailed');
    const outer = this.handler;
    this.handler = failed;
    const value = this.callBody(e);
    this.handler = outer;
    const prefix = `function call error for "${e.name}" at (${e.span[0]}:${e.span[1]}): `;
    return m.block(done, [
      m.block(failed, [m.br(done, undefined, value)]),
      m.drop(this.call('error_prefix', [this.bytesConstant(prefix)])),
      this.toHandler(),
    ], this.i32);
  }

  private callBody(e: ast.Call): ExpressionRef {
    const def = this.types.functions.get(e);
    if (!def) throw new Error(`internal: call to ${e.name} was not resolved by the checker`);
    const args = bindArguments(def, e);
    const m = this.m;
    const intrinsic = INTRINSICS[def.name];
    if (def.backing.kind === 'intrinsic') {
      if (!intrinsic) throw new MissingImplementation(def.name, e.nameSpan);
      return intrinsic(this, e, args);
    }
    // Arguments run in source order; the callee takes them in parameter order.
    const temps = new Map<Parameter, number>();
    const evaluate: ExpressionRef[] = [];
    for (const arg of e.args) {
      const param = paramOf(def, e, arg);
      const t = this.fn.local();
      temps.set(param, t);
      evaluate.push(m.local.set(t, this.expr(arg.value)));
    }
    // Fresh expressions on each call: a binaryen expression has one parent.
    const operands = () => def.parameters.map((p) => (temps.has(p) ? m.local.get(temps.get(p)!, this.i32) : m.i32.const(0)));
    const invoke = SPECIALIZED[def.name]?.(this, e, def, args, operands) ?? this.implementation(def, e, operands());
    return m.block(null, [...evaluate, this.checked(invoke)], this.i32);
  }

  /** A call of `def`'s implementation: its JS function or its stdlib export. */
  private implementation(def: FunctionDef, e: ast.Call, operands: ExpressionRef[]): ExpressionRef {
    if (def.backing.kind === 'js') return this.jsCall(def, e, operands);
    const exportName = `fn_${def.name}`;
    if (!this.std.has(exportName)) throw new MissingImplementation(def.name, e.nameSpan);
    return this.call(exportName, operands);
  }

  /**
   * `format_timestamp` in UTC (no `timezone`) runs in the stdlib: a literal format as its program built here,
   * any other as the program the runtime builds once per distinct format. A format without one (an error, or
   * a specifier only the JS function has) goes to the JS function.
   */
  formatTimestamp(e: ast.Call, def: FunctionDef, args: Map<string, ast.Expr>, operands: () => ExpressionRef[]): ExpressionRef | undefined {
    if (args.has('timezone')) return undefined;
    const found = this.strftimeProgram(ProgramKind.UtcFormat, args, operands);
    if (!found) return undefined;
    const format = (program: ExpressionRef) => this.call('strftime_format_utc', [operands()[0]!, program]);
    if (found.literal) return format(found.program);
    const m = this.m;
    const program = this.fn.local();
    return m.block(null, [
      m.local.set(program, found.program),
      m.if(m.i32.eqz(m.local.get(program, this.i32)), this.jsCall(def, e, operands()), format(m.local.get(program, this.i32))),
    ], this.i32);
  }

  /**
   * `parse_timestamp` without `timezone` runs the format's program in the stdlib (built as for
   * `format_timestamp`), which reads what it can; the JS function answers the rest, errors and their
   * messages included.
   */
  parseTimestamp(e: ast.Call, def: FunctionDef, args: Map<string, ast.Expr>, operands: () => ExpressionRef[]): ExpressionRef | undefined {
    if (args.has('timezone')) return undefined;
    const found = this.strftimeProgram(ProgramKind.Parse, args, operands);
    if (!found) return undefined;
    const m = this.m;
    const program = this.fn.local();
    const parsed = this.fn.local();
    const get = (local: number) => m.local.get(local, this.i32);
    return m.block(null, [
      m.local.set(program, found.program),
      m.local.set(parsed, m.if(m.i32.eqz(get(program)), this.constI32(0), this.call('strftime_parse', [operands()[0]!, get(program)]))),
      m.if(m.i32.eqz(get(parsed)), m.local.set(parsed, this.jsCall(def, e, operands()))),
      get(parsed),
    ], this.i32);
  }

  /**
   * The strftime program of a call's `format`: a constant for a literal (undefined when it has none), else the
   * stdlib's lookup at run time, which gives 0 for a format without one.
   */
  private strftimeProgram(kind: ProgramKind, args: Map<string, ast.Expr>, operands: () => ExpressionRef[]): { program: ExpressionRef; literal: boolean } | undefined {
    const format = args.get('format');
    const constant = format && literalConstant(format);
    if (constant?.kind === 'string') {
      const program = strftimeProgram(kind, constant.value);
      return program && { program: this.constant(this.pool.bytesValue(program)), literal: true };
    }
    return { program: this.call('strftime_program', [this.constI32(kind), operands()[1]!]), literal: false };
  }

  /** A call of the JS function `def` with the argument values `operands` (0 for an absent one). */
  private jsCall(def: FunctionDef, e: ast.Call, operands: ExpressionRef[]): ExpressionRef {
    const m = this.m;
    if (!this.hostAvailable.has(def.name)) throw new MissingImplementation(def.name, e.nameSpan);
    let index = this.jsFunctions.indexOf(def.name);
    if (index < 0) index = this.jsFunctions.push(def.name) - 1;
    const argv = this.fn.local();
    return m.block(null, [
      m.local.set(argv, this.call('alloc', [this.constI32(operands.length * 4)])),
      ...operands.map((op, i) => m.i32.store(i * 4, 4, m.local.get(argv, this.i32), op)),
      this.call('js_call', [this.constI32(index), m.local.get(argv, this.i32), this.constI32(operands.length)]),
    ], this.i32);
  }

  /** `del(path, compact)`: removes through the path's cell; on an expression target only reads. */
  del(args: Map<string, ast.Expr>): ExpressionRef {
    const path = args.get('target') as ast.Query;
    const cell = this.cellOf(path.target);
    if (!cell) return this.query(path);
    const compact = args.get('compact');
    const flag = compact ? this.isTrue(this.expr(compact)) : this.constI32(0);
    return this.call('path_remove', [cell, this.pathDescriptor(path.path), flag]);
  }

  // ---- closures --------------------------------------------------------------------------------------

  /** `type_def(value)`: the argument's type, known at compile time; the argument itself is not evaluated (as VRL). */
  typeDef(args: Map<string, ast.Expr>): ExpressionRef {
    const kind = this.types.types.get(args.get('value')!)?.kind;
    if (!kind) throw new Error('internal: type_def argument has no type');
    return this.constant(this.pool.value(kindDebugInfo(kind)));
  }

  /** `unnest(path)`: one copy of the path's root per item of the array at the path. */
  unnest(args: Map<string, ast.Expr>): ExpressionRef {
    const path = args.get('path') as ast.Query;
    return this.checked(this.call('path_unnest', [this.queryRoot(path.target), this.pathDescriptor(path.path)]));
  }

  /** `exists(path)`: whether the path is there, without reading its value. */
  exists(args: Map<string, ast.Expr>): ExpressionRef {
    const path = args.get('field') as ast.Query;
    return this.boolValue(this.call('path_exists', [this.queryRoot(path.target), this.pathDescriptor(path.path)]));
  }

  /** `map_values` and `map_keys`: a helper function walks the value, calling the closure. */
  mapCall(e: ast.Call, args: Map<string, ast.Expr>, kind: 'map_values' | 'map_keys'): ExpressionRef {
    const input = this.expr(args.get('value')!);
    const recursive = args.get('recursive');
    const flag = recursive ? this.isTrue(this.expr(recursive)) : this.constI32(0);
    const helper = this.mapHelper(e.closure!, kind);
    return this.checkedHelper(this.m.call(helper, [input, flag], this.i32));
  }

  /** Binds the closure's parameters to fresh slots and generates its body in a new scope. */
  private closureBody(closure: ast.Closure, bind: (slots: number[]) => void): ExpressionRef {
    return this.inScope(() => {
      bind(closure.params.map((p) => this.defineSlot(p.name)));
      const outerExit = this.closureExit;
      this.closureExit = this.fn.label('closure');
      const body = this.m.block(this.closureExit, [this.sequence(closure.body.exprs)], this.i32);
      this.closureExit = outerExit;
      return body;
    });
  }

  /** `for_each` and `filter`: a loop over entries (key, value) or items (index, value) in this function. */
  iterate(e: ast.Call, args: Map<string, ast.Expr>, kind: 'for_each' | 'filter'): ExpressionRef {
    const input = this.expr(args.get('value')!);
    const closure = e.closure!;
    const m = this.m;
    const i32 = this.i32;
    const c = this.fn.local();
    const n = this.fn.local();
    const i = this.fn.local();
    const isObject = this.fn.local();
    const result = this.fn.local();
    let slots: number[] = [];
    const body = this.closureBody(closure, (s) => { slots = s; });
    const [keySlot, valueSlot] = slots;
    const get = (l: number) => m.local.get(l, i32);
    const item = m.if(get(isObject),
      this.call('object_value', [get(c), get(i)]),
      this.call('array_get', [get(c), get(i)]));
    const key = m.if(get(isObject),
      this.call('object_key', [get(c), get(i)]),
      this.call('new_int', [m.i64.extend_u(get(i))]));
    const value = this.fn.local();
    const keyValue = this.fn.local();
    const step: ExpressionRef[] = [
      m.local.set(keyValue, key),
      m.local.set(value, this.call('value_share', [item])),
      ...(keySlot !== undefined ? [this.storeSlot(keySlot, get(keyValue))] : []),
      ...(valueSlot !== undefined ? [this.storeSlot(valueSlot, get(value))] : []),
    ];
    if (kind === 'for_each') {
      step.push(m.drop(body));
    } else {
      step.push(m.if(this.isTrue(body), m.if(get(isObject),
        this.call('object_set', [get(result), this.call('bytes_ptr', [get(keyValue)]), this.call('bytes_len', [get(keyValue)]), get(value)], this.b.none),
        this.call('array_push', [get(result), get(value)], this.b.none))));
    }
    const exit = this.fn.label('done');
    const next = this.fn.label('next');
    const tag = this.fn.local();
    // A value that is not a collection (the root of a string event, say): VRL's for_each runs the closure
    // on none of it, its filter fails.
    const notCollection = () => m.i32.lt_u(get(tag), m.i32.const(Tag.Array));
    return m.block(null, [
      m.local.set(c, input),
      m.local.set(tag, this.call('value_tag', [get(c)])),
      kind === 'filter'
        ? m.if(notCollection(), m.block(null, [
          m.drop(this.call('fail_value', [this.bytesConstant('function requires collection types as input')])),
          this.toHandler(),
        ]))
        : m.nop(),
      m.local.set(isObject, m.i32.eq(get(tag), m.i32.const(Tag.Object))),
      m.local.set(n, m.if(get(isObject), this.call('object_len', [get(c)]),
        m.if(notCollection(), m.i32.const(0), this.call('array_len', [get(c)])))),
      m.local.set(result, kind === 'for_each'
        ? this.constI32(this.std.nullValue)
        : m.if(get(isObject), this.call('new_object', [get(n)]), this.call('new_array', [get(n)]))),
      m.local.set(i, m.i32.const(0)),
      m.block(exit, [m.loop(next, m.block(null, [
        m.br(exit, m.i32.ge_u(get(i), get(n))),
        ...step,
        m.local.set(i, m.i32.add(get(i), m.i32.const(1))),
        m.br(next),
      ]))]),
      get(result),
    ], i32);
  }

  /** `replace_with`: the text between matches is kept, each match replaced by the closure's string. */
  replaceWith(e: ast.Call, args: Map<string, ast.Expr>): ExpressionRef {
    const input = this.expr(args.get('value')!);
    const closure = e.closure!;
    const m = this.m;
    const i32 = this.i32;
    const get = (l: number) => m.local.get(l, i32);
    const [text, matches, n, i, item, last, acc] = Array.from({ length: 7 }, () => this.fn.local());
    const count = args.get('count');
    const limit = count ? m.i32.wrap(m.i64.load(8, 8, this.expr(count))) : m.i32.const(-1);
    let slots: number[] = [];
    const body = this.closureBody(closure, (s) => { slots = s; });
    const offset = (index: number) => m.i32.wrap(m.i64.load(8, 8, this.call('array_get', [get(item), m.i32.const(index)])));
    const append = (piece: ExpressionRef) => m.local.set(acc, this.checked(this.call('op_add', [get(acc), piece])));
    const exit = this.fn.label('done');
    const next = this.fn.label('next');
    return m.block(null, [
      m.local.set(text, input),
      m.local.set(matches, this.checked(this.call('regex_matches', [get(text), this.expr(args.get('pattern')!), limit]))),
      m.local.set(n, this.call('array_len', [get(matches)])),
      m.local.set(acc, this.bytesConstant('')),
      m.local.set(last, m.i32.const(0)),
      m.local.set(i, m.i32.const(0)),
      m.block(exit, [m.loop(next, m.block(null, [
        m.br(exit, m.i32.ge_u(get(i), get(n))),
        m.local.set(item, this.call('array_get', [get(matches), get(i)])),
        append(this.call('bytes_slice', [get(text), get(last), offset(0)])),
        slots[0] !== undefined ? this.storeSlot(slots[0], this.call('array_get', [get(item), m.i32.const(2)])) : m.nop(),
        append(body),
        m.local.set(last, offset(1)),
        m.local.set(i, m.i32.add(get(i), m.i32.const(1))),
        m.br(next),
      ]))]),
      append(this.call('bytes_slice', [get(text), get(last), this.call('bytes_len', [get(text)])])),
      get(acc),
    ], i32);
  }

  /**
   * `map_values` / `map_keys`: a function of its own `(value, recursive) → value`, because the
   * recursive form calls itself on nested containers (after which map_values also maps the container);
   * `recursive` is 0, or 1 plus the nesting level of `value`.
   */
  private mapHelper(closure: ast.Closure, kind: 'map_values' | 'map_keys'): string {
    const m = this.m;
    const i32 = this.i32;
    const name = `svc_${kind}_${this.helpers++}`;
    const outerFn = this.fn;
    const outerHandler = this.handler;
    this.fn = new FunctionState(2, i32);
    this.handler = undefined;
    const c = 0;
    const recursive = 1;
    const n = this.fn.local();
    const i = this.fn.local();
    const isObject = this.fn.local();
    const tag = this.fn.local();
    const result = this.fn.local();
    const value = this.fn.local();
    const mapped = this.fn.local();
    let slots: number[] = [];
    const body = this.closureBody(closure, (s) => { slots = s; });
    const get = (l: number) => m.local.get(l, i32);
    const [slot] = slots;
    // VRL maps a value that is not a collection (the root of a string event, say) as a whole: map_values
    // runs the closure once on it, map_keys leaves it as it is.
    const isScalar = () => m.i32.lt_u(get(tag), m.i32.const(Tag.Array));
    const byShape = (object: ExpressionRef, array: ExpressionRef, scalar: ExpressionRef) =>
      m.if(get(isObject), object, m.if(isScalar(), scalar, array));
    const isContainer = (v: ExpressionRef) => m.i32.ge_u(this.call('value_tag', [v]), m.i32.const(Tag.Array));
    // Nested containers first (recursive form), then the closure on the value (map_values) or key (map_keys).
    const descend = m.if(m.i32.and(m.i32.ne(get(recursive), m.i32.const(0)), isContainer(get(value))),
      m.local.set(value, m.block(null, [
        m.local.set(mapped, m.call(name, [get(value), m.i32.add(get(recursive), m.i32.const(1))], i32)),
        m.if(m.i32.eqz(get(mapped)), m.return(m.i32.const(0))),
        get(mapped),
      ], i32)));
    // The closure sees the value (map_values) or the key (map_keys); its result replaces that part.
    const bind = slot === undefined ? m.nop() : this.storeSlot(slot, kind === 'map_values'
      ? get(value)
      : this.call('object_key', [get(c), get(i)]));
    const store = kind === 'map_values'
      ? byShape(
        this.call('object_set', [get(result), this.call('object_key_ptr', [get(c), get(i)]), this.call('object_key_len', [get(c), get(i)]), get(mapped)], this.b.none),
        this.call('array_push', [get(result), get(mapped)], this.b.none),
        m.local.set(result, get(mapped)))
      : m.if(get(isObject),
        this.call('object_set', [get(result), this.call('bytes_ptr', [get(mapped)]), this.call('bytes_len', [get(mapped)]), get(value)], this.b.none),
        this.call('array_push', [get(result), get(value)], this.b.none));
    // map_keys runs its closure on object keys only; array items are only descended into.
    const step = kind === 'map_values'
      ? m.block(null, [bind, m.local.set(mapped, body), store])
      : m.block(null, [m.if(get(isObject), m.block(null, [bind, m.local.set(mapped, body)])), store]);
    const exit = this.fn.label('done');
    const next = this.fn.label('next');
    const loop = m.block(exit, [m.loop(next, m.block(null, [
      m.br(exit, m.i32.ge_u(get(i), get(n))),
      m.local.set(value, this.call('value_share', [kind === 'map_values'
        ? byShape(this.call('object_value', [get(c), get(i)]), this.call('array_get', [get(c), get(i)]), get(c))
        : m.if(get(isObject), this.call('object_value', [get(c), get(i)]), this.call('array_get', [get(c), get(i)]))])),
      descend,
      step,
      m.local.set(i, m.i32.add(get(i), m.i32.const(1))),
      m.br(next),
    ]))]);
    m.addFunction(name, this.b.createType([i32, i32]), i32, this.fn.locals, m.block(null, [
      m.block(this.fn.uncaught, [
        // `recursive` counts the levels down (stdlib-as/depth.ts): past the limit the value stays as it is.
        m.if(m.i32.eqz(this.call('may_descend', [m.i32.sub(get(recursive), m.i32.const(1))])), m.return(get(c))),
        m.local.set(tag, this.call('value_tag', [get(c)])),
        kind === 'map_keys' ? m.if(isScalar(), m.return(get(c))) : m.nop(),
        m.local.set(isObject, m.i32.eq(get(tag), m.i32.const(Tag.Object))),
        m.local.set(n, byShape(this.call('object_len', [get(c)]), this.call('array_len', [get(c)]), m.i32.const(1))),
        m.local.set(result, byShape(this.call('new_object', [get(n)]), this.call('new_array', [get(n)]), get(c))),
        m.local.set(i, m.i32.const(0)),
        loop,
        m.return(get(result)),
      ]),
      m.return(m.i32.const(0)),
    ], this.b.none));
    this.fn = outerFn;
    this.handler = outerHandler;
    return name;
  }
}

const OPERATORS: Record<Exclude<ast.BinaryOp, '??' | '||' | '&&'>, string> = {
  '+': 'op_add', '-': 'op_sub', '*': 'op_mul', '/': 'op_div', '%': 'op_rem',
  '<': 'op_lt', '<=': 'op_le', '>': 'op_gt', '>=': 'op_ge', '==': 'op_eq', '!=': 'op_ne', '|': 'op_merge',
};

/**
 * Functions the generator emits itself (definitions with `backing: { kind: 'intrinsic' }`), by name: they
 * take paths or closures, or are answered at compile time. scripts/gen-function-index.mjs checks that every
 * such definition has its entry here.
 */
const INTRINSICS: Readonly<Record<string, (g: Generator, e: ast.Call, args: Map<string, ast.Expr>) => ExpressionRef>> = {
  del: (g, _e, args) => g.del(args),
  exists: (g, _e, args) => g.exists(args),
  filter: (g, e, args) => g.iterate(e, args, 'filter'),
  for_each: (g, e, args) => g.iterate(e, args, 'for_each'),
  map_keys: (g, e, args) => g.mapCall(e, args, 'map_keys'),
  map_values: (g, e, args) => g.mapCall(e, args, 'map_values'),
  replace_with: (g, e, args) => g.replaceWith(e, args),
  type_def: (g, _e, args) => g.typeDef(args),
  unnest: (g, _e, args) => g.unnest(args),
};

/**
 * Calls the generator compiles its own way when their arguments allow, by name: the code, or undefined for
 * the function's implementation (strftime formats run in the stdlib where they can).
 */
const SPECIALIZED: Readonly<Record<string, (g: Generator, e: ast.Call, def: FunctionDef, args: Map<string, ast.Expr>, operands: () => ExpressionRef[]) => ExpressionRef | undefined>> = {
  format_timestamp: (g, e, def, args, operands) => g.formatTimestamp(e, def, args, operands),
  parse_timestamp: (g, e, def, args, operands) => g.parseTimestamp(e, def, args, operands),
};

/** A program uses a function whose implementation this build does not have. */
export class MissingImplementation extends Error {
  constructor(readonly functionName: string, readonly span: ast.Span) {
    super(`function "${functionName}" has no implementation in this build`);
  }
}

/** The parameter an argument binds to: by keyword, else the next unbound one in order (as the checker). */
function paramOf(def: FunctionDef, call: ast.Call, arg: ast.Argument): Parameter {
  return bindParameters(def, call).get(arg)!;
}

const bindings = new WeakMap<ast.Call, Map<ast.Argument, Parameter>>();

function bindParameters(def: FunctionDef, call: ast.Call): Map<ast.Argument, Parameter> {
  let bound = bindings.get(call);
  if (bound) return bound;
  bound = new Map();
  const taken = new Set<Parameter>();
  let position = 0;
  for (const arg of call.args) {
    let param: Parameter | undefined;
    if (arg.name !== undefined) param = def.parameters.find((p) => p.name === arg.name);
    else {
      while (position < def.parameters.length && taken.has(def.parameters[position]!)) position++;
      param = def.parameters[position++];
    }
    taken.add(param!);
    bound.set(arg, param!);
  }
  bindings.set(call, bound);
  return bound;
}

/** Argument expressions by parameter name. */
function bindArguments(def: FunctionDef, call: ast.Call): Map<string, ast.Expr> {
  const out = new Map<string, ast.Expr>();
  for (const [arg, param] of bindParameters(def, call)) out.set(param.name, arg.value);
  return out;
}

/** The constant of a literal, or of an array/object literal made only of literals. */
function literalConstant(e: ast.Expr): Constant | undefined {
  switch (e.type) {
    case 'Literal': return e.value;
    case 'Group': return literalConstant(e.expr);
    case 'Array': {
      const items = e.items.map(literalConstant);
      return items.every((i) => i !== undefined) ? { kind: 'array', items: items as Constant[] } : undefined;
    }
    case 'Object': {
      const fields = new Map<string, Constant>();
      for (const entry of e.entries) {
        const v = literalConstant(entry.value);
        if (v === undefined) return undefined;
        fields.set(entry.key, v);
      }
      return { kind: 'object', fields };
    }
    default: return undefined;
  }
}
