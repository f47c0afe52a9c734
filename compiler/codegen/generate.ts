// Code generation: a checked remap program → binaryen functions added to a module that already holds the
// stdlib. Values are i32 addresses (docs/abi.md §8); an operation that fails yields 0 and the generated
// code branches to the innermost error handler (`??`, `ok, err =`, or the function's uncaught exit).

import * as ast from '../ast.js';
import type { CheckResult, ResolvedCall } from '../check/result.js';
import { constantOf } from '../types/constant.js';
import { K, type Kind } from '../types/kind.js';
import { ConstantPool } from './constants.js';
import { Outcome } from '../../abi/wire/batch.js';
import type { Binaryen, BinaryenModule, ExpressionRef } from './binaryen.js';
import { lowerIntrinsic, lowerSpecialized } from './builtins.js';
import { MissingImplementation, type CodegenContext, type StdlibSymbols } from './context.js';

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
   * caller stored in them instead of being reset (the REPL carries variables between lines).
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

  constructor(
    readonly params: number,
    private readonly i32: number,
  ) {
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
  return new Generator(b, m, types, std, options.jsFunctions ?? new Set()).program(
    program,
    programName,
    options.predefined ?? [],
  );
}

class Generator implements CodegenContext {
  private readonly i32: number;
  readonly pool = new ConstantPool();
  private readonly jsFunctions: string[] = [];
  private slots = 0;
  private scopes: Scope[] = [new Map()];
  private fn!: FunctionState;
  /** Innermost error handler label, or undefined for the function's uncaught exit. */
  private handler: string | undefined;
  private helpers = 0;
  /** Label of the block around the closure body being generated: where its `return` goes. */
  private closureExit: string | undefined;
  /** The call of `x = push(x, …)` (or `append`, `set`) being generated and its read of `x` (`inPlaceCall`). */
  private inPlace: { call: ast.Call; read: ast.Expr } | undefined;

  constructor(
    readonly b: Binaryen,
    readonly m: BinaryenModule,
    private readonly types: CheckResult,
    readonly std: StdlibSymbols,
    private readonly availableJsFunctions: ReadonlySet<string>,
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
      for (let i = predefined.length; i < this.slots; i++)
        reset.push(this.storeSlot(i, this.constI32(this.std.nullValue)));
      return reset;
    };
    if (!parts.length) {
      this.statementsFunction(name, last, false, slotReset);
    } else {
      const run = `${PART_FUNCTION}${parts.length}`;
      this.statementsFunction(run, last, false);
      // A part that did not finish (error, abort or `return`) gives the program's result.
      const result = 0;
      m.addFunction(
        name,
        this.b.none,
        i32,
        [i32],
        m.block(
          null,
          [
            ...slotReset(),
            ...parts.map((call) =>
              m.if(
                m.i32.ne(m.local.tee(result, call, i32), m.i32.const(PART_DONE)),
                m.return(m.local.get(result, i32)),
              ),
            ),
            m.return(m.call(run, [], i32)),
          ],
          this.b.none,
        ),
      );
    }
    this.init();
    return { constants: this.pool.finish(), jsFunctions: this.jsFunctions, variables: [...this.scopes[0]!] };
  }

  /**
   * A function running top-level statements: it returns the last one's value (`PART_DONE` for a `part`), or
   * 0 once the outcome is set (error, abort); a `return` statement returns its value from it. The prologue
   * is made after the statements, which allocate the variable slots.
   */
  private statementsFunction(
    name: string,
    exprs: readonly ast.Expr[],
    part: boolean,
    prologue: () => ExpressionRef[] = () => [],
  ): void {
    const m = this.m;
    this.fn = new FunctionState(0, this.i32);
    const result = this.fn.local();
    const body = part
      ? m.block(null, [...exprs.map((e) => m.drop(this.expr(e, false))), this.constI32(PART_DONE)], this.i32)
      : this.sequence(exprs);
    m.addFunction(
      name,
      this.b.none,
      this.i32,
      this.fn.locals,
      m.block(
        null,
        [
          ...prologue(),
          m.block(this.fn.uncaught, [m.local.set(result, body), m.return(m.local.get(result, this.i32))]),
          this.call('set_outcome', [m.i32.const(Outcome.Error)], this.b.none),
          m.return(m.i32.const(0)),
        ],
        this.b.none,
      ),
    );
  }

  /** `svc_init(blob)`: decode the constants, reserve variable slots, keep both across arena resets. */
  private init(): void {
    const m = this.m;
    const i32 = this.i32;
    for (const name of [BLOB, CONSTS, VARS]) m.addGlobal(name, i32, true, m.i32.const(0));
    const decode = this.pool.values.map((offset, k) =>
      m.i32.store(
        k * 4,
        4,
        m.global.get(CONSTS, i32),
        this.call('value_share', [
          this.call('value_decode', [m.i32.add(m.global.get(BLOB, i32), m.i32.const(offset))]),
        ]),
      ),
    );
    m.addFunction(
      INIT_FUNCTION,
      this.b.createType([i32]),
      this.b.none,
      [],
      m.block(
        null,
        [
          m.global.set(BLOB, m.local.get(0, i32)),
          m.global.set(CONSTS, this.call('alloc', [m.i32.const(Math.max(4, this.pool.values.length * 4))])),
          ...decode,
          m.global.set(VARS, this.call('alloc', [m.i32.const(Math.max(4, this.slots * 4))])),
          this.call('arena_set_floor', [], this.b.none),
        ],
        this.b.none,
      ),
    );
    m.addFunction(VARIABLES_FUNCTION, this.b.none, i32, [], m.global.get(VARS, i32));
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  call(exportName: string, args: ExpressionRef[], result = this.i32): ExpressionRef {
    return this.m.call(this.std.fn(exportName), args, result);
  }

  kindOf(e: ast.Expr): Kind | undefined {
    return this.types.types.get(e)?.kind;
  }

  local(): number {
    return this.fn.local();
  }

  label(what: string): string {
    return this.fn.label(what);
  }

  private constI32(n: number): ExpressionRef {
    return this.m.i32.const(n);
  }

  /** The decoded constant number `k` of the pool. */
  constant(k: number): ExpressionRef {
    return this.m.i32.load(k * 4, 4, this.m.global.get(CONSTS, this.i32));
  }

  bytesConstant(text: string): ExpressionRef {
    return this.constant(this.pool.bytes(text));
  }

  pathDescriptor(path: readonly ast.PathSegment[]): ExpressionRef {
    return this.m.i32.add(this.m.global.get(BLOB, this.i32), this.constI32(this.pool.path(path)));
  }

  private slotAddress(slot: number): ExpressionRef {
    return this.m.i32.add(this.m.global.get(VARS, this.i32), this.constI32(slot * 4));
  }
  private loadSlot(slot: number): ExpressionRef {
    return this.m.i32.load(slot * 4, 4, this.m.global.get(VARS, this.i32));
  }
  storeSlot(slot: number, value: ExpressionRef): ExpressionRef {
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
  toHandler(): ExpressionRef {
    return this.m.br(this.handler ?? this.fn.uncaught);
  }

  /** `value`, or a branch to the handler (after `onError`) when it is 0. */
  checked(value: ExpressionRef, onError: ExpressionRef[] = []): ExpressionRef {
    const m = this.m;
    const t = this.fn.local();
    return m.block(
      null,
      [
        m.if(m.i32.eqz(m.local.tee(t, value, this.i32)), m.block(null, [...onError, this.toHandler()])),
        m.local.get(t, this.i32),
      ],
      this.i32,
    );
  }

  isTrue(value: ExpressionRef): ExpressionRef {
    return this.m.i32.eq(value, this.constI32(this.std.trueValue));
  }

  boolValue(condition: ExpressionRef): ExpressionRef {
    return this.m.select(condition, this.constI32(this.std.trueValue), this.constI32(this.std.falseValue));
  }

  /** Runs the statements in order; the value is the last one's (null when there are none). `lastUsed`: whether
   * anything takes that value. */
  private sequence(exprs: readonly ast.Expr[], lastUsed = true): ExpressionRef {
    const m = this.m;
    if (exprs.length === 0) return this.constI32(this.std.nullValue);
    const children = exprs.map((e, i) =>
      i === exprs.length - 1 ? this.expr(e, lastUsed) : m.drop(this.expr(e, false)),
    );
    return children.length === 1 ? children[0]! : m.block(null, children, this.i32);
  }

  // ---- expressions -----------------------------------------------------------------------------------

  /** Code that yields the expression's value (never 0: failures branch to the handler). */
  expr(e: ast.Expr, used = true): ExpressionRef {
    switch (e.type) {
      case 'Literal':
        return this.constant(this.pool.value(e.value));
      case 'Template':
        return this.template(e);
      case 'Array':
        return this.arrayLiteral(e);
      case 'Object':
        return this.objectLiteral(e);
      case 'Variable':
        // The value an in-place call takes over is not marked shared by this read (`inPlaceCall`).
        if (this.inPlace?.read === e) return this.loadSlot(this.slotOf(e.name));
        return this.call('value_share', [this.loadSlot(this.slotOf(e.name))]);
      case 'Query':
        return this.query(e);
      case 'Call':
        return this.callExpr(e);
      case 'Unary':
        return this.checked(this.call('op_not', [this.expr(e.operand)]));
      case 'Binary':
        return this.binary(e);
      case 'Assign':
        return this.assign(e, used);
      case 'If':
        return this.ifExpr(e);
      case 'Block':
        return this.inScope(() => this.sequence(e.exprs));
      case 'Group':
        return this.expr(e.expr, used);
      case 'Sequence':
        return this.sequence(e.exprs);
      case 'Abort':
        return this.abort(e);
      // Inside a closure `return` ends the closure's run with the value; elsewhere, the program's.
      case 'Return':
        return this.closureExit
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
    return m.block(
      null,
      [
        m.local.set(a, this.call('new_array', [this.constI32(e.items.length)])),
        ...e.items.map((item) => this.call('array_push', [m.local.get(a, this.i32), this.expr(item)], this.b.none)),
        m.local.get(a, this.i32),
      ],
      this.i32,
    );
  }

  private objectLiteral(e: ast.ObjectLit): ExpressionRef {
    const constant = this.constantOf(e);
    if (constant !== undefined) return this.constant(constant);
    const m = this.m;
    const o = this.fn.local();
    const key = this.fn.local();
    return m.block(
      null,
      [
        m.local.set(o, this.call('new_object', [this.constI32(e.entries.length)])),
        ...e.entries.map((entry) => {
          const value = this.fn.local();
          return m.block(null, [
            m.local.set(value, this.expr(entry.value)),
            m.local.set(key, this.bytesConstant(entry.key)),
            this.call(
              'object_set',
              [
                m.local.get(o, this.i32),
                this.call('bytes_ptr', [m.local.get(key, this.i32)]),
                this.call('bytes_len', [m.local.get(key, this.i32)]),
                m.local.get(value, this.i32),
              ],
              this.b.none,
            ),
          ]);
        }),
        m.local.get(o, this.i32),
      ],
      this.i32,
    );
  }

  /** Pool index of a literal container whose items are all literals. */
  private constantOf(e: ast.Expr): number | undefined {
    const c = constantOf(e);
    return c === undefined ? undefined : this.pool.value(c);
  }

  query(e: ast.Query): ExpressionRef {
    if (this.inPlace?.read === e) return this.take(e);
    const root = this.queryRoot(e.target);
    if (e.path.length === 0) return this.call('value_share', [root]);
    return this.call('path_get', [root, this.pathDescriptor(e.path)]);
  }

  queryRoot(target: ast.QueryTarget): ExpressionRef {
    const m = this.m;
    switch (target.kind) {
      case 'event':
        return m.i32.load(0, 4, this.call('event_cell', []));
      case 'metadata':
        return m.i32.load(0, 4, this.call('meta_cell', []));
      case 'variable':
        return this.loadSlot(this.slotOf(target.name));
      case 'expr':
        return this.expr(target.expr);
    }
  }

  /** Address of the cell an assignment or `del` writes through, or undefined for expression targets. */
  cellOf(target: ast.QueryTarget): ExpressionRef | undefined {
    switch (target.kind) {
      case 'event':
        return this.call('event_cell', []);
      case 'metadata':
        return this.call('meta_cell', []);
      case 'variable':
        return this.slotAddress(this.slotOf(target.name));
      case 'expr':
        return undefined;
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
        return m.block(done, [m.block(failed, [m.br(done, undefined, left)]), this.expr(e.right)], this.i32);
      }
      case '||': {
        const l = this.fn.local();
        return m.if(
          this.call('is_falsy', [m.local.tee(l, this.expr(e.left), this.i32)]),
          this.expr(e.right),
          m.local.get(l, this.i32),
        );
      }
      case '&&': {
        const l = this.fn.local();
        return m.if(
          this.call('is_falsy', [m.local.tee(l, this.expr(e.left), this.i32)]),
          this.constI32(this.std.falseValue),
          this.checked(this.call('op_and', [m.local.get(l, this.i32), this.expr(e.right)])),
        );
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
    return m.block(
      null,
      [
        m.drop(this.call('fail_value', [message])),
        this.call('set_outcome', [m.i32.const(Outcome.Aborted)], this.b.none),
        m.return(m.i32.const(0)),
      ],
      this.b.unreachable,
    );
  }

  // ---- assignment ------------------------------------------------------------------------------------

  private assign(e: ast.Assign, used: boolean): ExpressionRef {
    const m = this.m;
    const value = this.fn.local();
    const rhs = (): ExpressionRef => {
      const outer = this.inPlace;
      this.inPlace = this.inPlaceCall(e);
      const v = this.expr(e.value);
      this.inPlace = outer;
      if (e.op === '=') return v;
      if (e.target.kind === 'query' && this.mergesInPlace(e)) {
        return this.checked(this.call('op_merge_in_place', [this.take(e.target.query), v]));
      }
      return this.checked(this.call('op_merge', [this.readTarget(e.target), v]));
    };
    const stored = (): ExpressionRef => {
      const v = m.local.get(value, this.i32);
      return used ? this.call('value_share', [v]) : v;
    };
    if (!e.errorTarget) {
      return m.block(
        null,
        [m.local.set(value, rhs()), this.writeTarget(e.target, stored()), m.local.get(value, this.i32)],
        this.i32,
      );
    }
    // `ok, err = expr`: on success err is null; on failure ok gets the default of expr's kind.
    const done = this.fn.label('assigned');
    const failed = this.fn.label('failed');
    const outer = this.handler;
    this.handler = failed;
    const attempt = rhs();
    this.handler = outer;
    return m.block(
      null,
      [
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
      ],
      this.i32,
    );
  }

  /**
   * `x = push(x, item)`, `x = append(x, items)` and `x = set(x, path, data)`, `x` a variable or a path (`.a`,
   * `%m.a`, `x.a`): its value goes to the call without being marked shared, and the call's in-place form
   * changes it unless something else holds it too (the copy-on-write rule path writes follow). A loop
   * building an array or an object this way otherwise copies it on every turn: 16k pushes took 0.5 s and
   * half a GB of one event's memory. The value is taken before the other arguments run, so none of them
   * may write on, above or below it (`x = push(x, del(x[0]))` pushes onto `x` as it was). A variable's
   * value read elsewhere is marked shared by that read; a path's is taken only when the other arguments
   * read nothing on, below or above it either: a read above marks only the container read shared, and the
   * change would show through it.
   */
  private inPlaceCall(e: ast.Assign): Generator['inPlace'] {
    if (e.op !== '=' || e.errorTarget || e.target.kind === 'noop' || e.value.type !== 'Call') return undefined;
    const target = e.target.query;
    const call = this.types.calls.get(e.value);
    if (!call || !Object.hasOwn(IN_PLACE, call.def.name)) return undefined;
    const read = call.args[IN_PLACE[call.def.name]!.takes]?.expr;
    if (!read || !readsPlace(read, target)) return undefined;
    const others = e.value.args.map((arg) => arg.value).filter((value) => value !== read);
    const variable = target.target.kind === 'variable' && target.path.length === 0;
    return others.some((other) => (variable ? writes(other, target) : touches(other, target)))
      ? undefined
      : { call: e.value, read };
  }

  /**
   * `x |= from` (`x` a variable or a path) merges into `x`'s value in place as `x = merge(x, from)` does,
   * under `inPlaceCall`'s rule: `from` writes nothing on, above or below `x`, and for a path reads nothing
   * there either. (Letting `. |= parse_key_value!(.message)` read below measured 1–3% slower on S5: a merge
   * into an object not 16 times larger makes a merged copy either way.)
   */
  private mergesInPlace(e: ast.Assign): boolean {
    if (e.op !== '|=' || e.errorTarget || e.target.kind === 'noop') return false;
    const target = e.target.query;
    if (target.path.some((segment) => segment.kind === 'coalesce')) return false;
    const variable = target.target.kind === 'variable' && target.path.length === 0;
    return variable ? !writes(e.value, target) : !touches(e.value, target);
  }

  /** The value at an assignment target, not marked shared, for a call that changes it in place. */
  private take(target: ast.Query): ExpressionRef {
    if (target.target.kind === 'variable' && target.path.length === 0)
      return this.loadSlot(this.slotOf(target.target.name));
    return this.call('path_take', [this.cellOf(target.target)!, this.pathDescriptor(target.path)]);
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
    return m.block(
      done,
      [
        m.block(failed, [m.br(done, undefined, value)]),
        m.drop(this.call('error_prefix', [this.bytesConstant(prefix)])),
        this.toHandler(),
      ],
      this.i32,
    );
  }

  private callBody(e: ast.Call): ExpressionRef {
    const call = this.types.calls.get(e);
    if (!call) throw new Error(`internal: call to ${e.name} was not resolved by the checker`);
    const def = call.def;
    if (def.backing.kind === 'intrinsic') return lowerIntrinsic(this, e, call);
    const m = this.m;
    // Arguments run in source order; the callee takes them in parameter order.
    const temps = new Map<string, number>();
    const evaluate: ExpressionRef[] = [];
    for (const param of call.order) {
      const t = this.fn.local();
      temps.set(param.name, t);
      evaluate.push(m.local.set(t, this.expr(call.args[param.name]!.expr)));
    }
    // Fresh expressions on each call: a binaryen expression has one parent.
    const operands = () =>
      def.parameters.map((p) => (temps.has(p.name) ? m.local.get(temps.get(p.name)!, this.i32) : m.i32.const(0)));
    const invoke = lowerSpecialized(this, e, call, operands) ?? this.implementation(e, call, operands());
    return m.block(null, [...evaluate, this.checked(invoke)], this.i32);
  }

  /** A call of the function's implementation: its JS function or its stdlib export. */
  implementation(e: ast.Call, call: ResolvedCall, operands: ExpressionRef[]): ExpressionRef {
    const def = call.def;
    if (def.backing.kind === 'js') return this.jsCall(def.name, e, operands);
    const exportName = this.inPlace?.call === e ? IN_PLACE[def.name]!.form : `fn_${def.name}`;
    if (!this.std.has(exportName)) throw new MissingImplementation(def.name, e.nameSpan);
    return this.call(exportName, operands);
  }

  /** A call of the JS function `name` with the argument values `operands` (0 for an absent one). */
  private jsCall(name: string, e: ast.Call, operands: ExpressionRef[]): ExpressionRef {
    const m = this.m;
    if (!this.availableJsFunctions.has(name)) throw new MissingImplementation(name, e.nameSpan);
    let index = this.jsFunctions.indexOf(name);
    if (index < 0) index = this.jsFunctions.push(name) - 1;
    const argv = this.fn.local();
    return m.block(
      null,
      [
        m.local.set(argv, this.call('alloc', [this.constI32(operands.length * 4)])),
        ...operands.map((op, i) => m.i32.store(i * 4, 4, m.local.get(argv, this.i32), op)),
        this.call('js_call', [this.constI32(index), m.local.get(argv, this.i32), this.constI32(operands.length)]),
      ],
      this.i32,
    );
  }

  // ---- closures --------------------------------------------------------------------------------------

  closureBody(closure: ast.Closure, resultUsed = true): { slots: number[]; body: ExpressionRef } {
    return this.inScope(() => {
      const slots = closure.params.map((p) => this.defineSlot(p.name));
      const outerExit = this.closureExit;
      this.closureExit = this.fn.label('closure');
      const body = this.m.block(this.closureExit, [this.sequence(closure.body.exprs, resultUsed)], this.i32);
      this.closureExit = outerExit;
      return { slots, body };
    });
  }

  helperFunction(what: string, params: number, body: (name: string) => ExpressionRef[]): string {
    const m = this.m;
    const name = `svc_${what}_${this.helpers++}`;
    const outerFn = this.fn;
    const outerHandler = this.handler;
    this.fn = new FunctionState(params, this.i32);
    this.handler = undefined;
    const statements = body(name);
    m.addFunction(
      name,
      this.b.createType(Array.from({ length: params }, () => this.i32)),
      this.i32,
      this.fn.locals,
      m.block(null, [m.block(this.fn.uncaught, statements), m.return(m.i32.const(0))], this.b.none),
    );
    this.fn = outerFn;
    this.handler = outerHandler;
    return name;
  }
}

/** Whether `read` is the value of the assignment target `target`: the same variable, or the same plain path. */
function readsPlace(read: ast.Expr, target: ast.Query): boolean {
  if (target.target.kind === 'variable' && target.path.length === 0) {
    return read.type === 'Variable' && read.name === target.target.name;
  }
  if (read.type !== 'Query' || !sameRoot(read.target, target.target) || read.path.length !== target.path.length) {
    return false;
  }
  return read.path.every((segment, i) => {
    const other = target.path[i]!;
    if (segment.kind === 'field') return other.kind === 'field' && other.name === segment.name;
    return segment.kind === 'index' && other.kind === 'index' && other.index === segment.index;
  });
}

/** Whether two query roots are the same event, metadata or variable. */
function sameRoot(a: ast.QueryTarget, b: ast.QueryTarget): boolean {
  if (a.kind === 'variable' || b.kind === 'variable') {
    return a.kind === 'variable' && b.kind === 'variable' && a.name === b.name;
  }
  return a.kind === b.kind && a.kind !== 'expr';
}

/**
 * Whether two paths from one root may reach one value, one above the other or the same: their common
 * segments may all select the same child (index segments always may: `[-1]` and `[2]` can be one item).
 */
function pathsOverlap(a: readonly ast.PathSegment[], b: readonly ast.PathSegment[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind === 'coalesce' || y.kind === 'coalesce') continue;
    if (x.kind !== y.kind || (x.kind === 'field' && y.kind === 'field' && x.name !== y.name)) return false;
  }
  return true;
}

/** Whether the query `q` may reach a value on, above or below `place`. */
function reaches(q: ast.Query, place: ast.Query): boolean {
  return sameRoot(q.target, place.target) && pathsOverlap(q.path, place.path);
}

/** Whether `e` reads or writes anything on, above or below the query `place` (a variable's name counts as its root). */
function touches(e: ast.Expr, place: ast.Query): boolean {
  if (e.type === 'Variable' && place.target.kind === 'variable' && e.name === place.target.name) return true;
  if (e.type === 'Query' && reaches(e, place)) return true;
  return writesHere(e, place) || ast.childExprs(e).some((child) => touches(child, place));
}

/** Whether `e` assigns or deletes anything on, above or below `place`. */
function writes(e: ast.Expr, place: ast.Query): boolean {
  return writesHere(e, place) || ast.childExprs(e).some((child) => writes(child, place));
}

/** `writes` of `e` itself, not of its parts. */
function writesHere(e: ast.Expr, place: ast.Query): boolean {
  if (e.type === 'Assign') return [e.target, e.errorTarget].some((t) => t?.kind === 'query' && reaches(t.query, place));
  if (e.type !== 'Call' || e.name !== 'del') return false;
  return e.args.some(({ value }) => value.type === 'Query' && reaches(value, place));
}

/**
 * The stdlib's in-place forms of the functions that return an argument changed (`inPlaceCall`), and the
 * parameter that takes the value they change.
 */
const IN_PLACE: Readonly<Record<string, { form: string; takes: string }>> = {
  push: { form: 'push_in_place', takes: 'value' },
  append: { form: 'append_in_place', takes: 'value' },
  set: { form: 'set_in_place', takes: 'value' },
  merge: { form: 'merge_in_place', takes: 'to' },
};

const OPERATORS: Record<Exclude<ast.BinaryOp, '??' | '||' | '&&'>, string> = {
  '+': 'op_add',
  '-': 'op_sub',
  '*': 'op_mul',
  '/': 'op_div',
  '%': 'op_rem',
  '<': 'op_lt',
  '<=': 'op_le',
  '>': 'op_gt',
  '>=': 'op_ge',
  '==': 'op_eq',
  '!=': 'op_ne',
  '|': 'op_merge',
};
