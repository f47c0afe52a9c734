// The type checker: walks the AST with VRL's type lattice and progressive state, enforces fallibility
// handling and argument kinds, and reports VRL's compile-time diagnostics. Output: diagnostics and the
// type of every expression (for the code generator).

import type * as ast from '../ast.js';
import type { Span } from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { lookupFunction, functionNames } from '../functions/index.js';
import type { ArgInfo, FunctionDef, Parameter } from '../functions/define.js';
import { constantOf, type Constant } from '../types/constant.js';
import {
  BOOLEAN,
  BYTES,
  FLOAT,
  INTEGER,
  K,
  NEVER,
  NULL,
  REGEX,
  TIMESTAMP,
  describe,
  exactArray,
  exactObject,
  fromBits,
  intersects,
  isAny,
  isExactly,
  isSubset,
  objectOf,
  readable,
  union,
  type Kind,
} from '../types/kind.js';
import { COMPILED, callText, display, displayQuery, displayTarget } from './display.js';
import * as msg from './messages.js';
import { validateRegex } from '../../abi/regex.js';
import { TypeState, type Declaration } from './state.js';
import { assignAt, deleteAt, kindAt, rejectsSegment } from '../types/path.js';
import { readTimestampLiteral } from '../types/timestamp.js';
import { bindArguments, expectPaths, validateArguments } from './calls.js';
import { isComparison, mergeObjects, operatorType, type ArithmeticOrLogic } from './operators.js';
import type { CheckResult, ResolvedArgument, ResolvedCall, TypeDef } from './result.js';

export type { CheckResult, ResolvedArgument, ResolvedCall, TypeDef } from './result.js';

const BUILTIN_IDENTS = ['null', 'true', 'false'];

/** What is known before the program starts: the REPL carries the event and variables between lines. */
export interface CheckContext {
  target?: Kind;
  /** Variables already defined, in slot order. */
  variables?: ReadonlyMap<string, Kind>;
  /** The enrichment tables known at compile time (`CompileOptions.enrichmentTables`). */
  enrichmentTables?: readonly string[];
  /** The event (`.`) may be read, not changed (`CompileOptions.readOnlyEvent`). */
  readOnlyEvent?: boolean;
}

/** Checks a parsed program. */
export function check(program: ast.Program, context: CheckContext = {}): CheckResult {
  return new Checker(context).run(program);
}

class Checker {
  private diagnostics: Diagnostic[] = [];
  private types = new Map<ast.Expr, TypeDef>();
  private calls = new Map<ast.Call, ResolvedCall>();
  private declarations: Declaration[] = [];
  /**
   * Fallible expressions of the current statement whose errors are not handled yet (VRL's E100 tracking),
   * each with the diagnostic to report if it stays unhandled (E100, or E110 for an argument of unverified
   * kind): the innermost fallible expression of each operand, so that every unhandled error is reported in
   * one pass (VRL 0.33). A construct that handles its operand's errors drops those raised since its mark.
   * `at` is where the diagnostic goes among the others, so that they stay in source order.
   */
  private unhandled: { span: Span; diagnostic?: Diagnostic; at: number }[] = [];
  private state = new TypeState();
  /** Variables left undefined because their assigned value failed to check: VRL does not report them again. */
  private failedTargets = new Set<string>();
  /** Kinds given to `return` inside the closure being checked: part of what the closure returns. */
  private returned: Kind[] | undefined;
  /** E900 warnings for dropped values, reported with the unused variables once the program checks. */
  private unusedValues: Diagnostic[] = [];

  private readonly enrichmentTables: readonly string[] | undefined;
  private readonly readOnlyEvent: boolean;

  constructor(context: CheckContext) {
    this.enrichmentTables = context.enrichmentTables;
    this.readOnlyEvent = context.readOnlyEvent ?? false;
    if (context.target) this.state.target = context.target;
    for (const [name, kind] of context.variables ?? []) {
      this.state.defineLocal(name, { kind, declaration: { name, span: [0, 0], read: true } });
    }
  }

  run(program: ast.Program): CheckResult {
    program.exprs.forEach((e, i) => {
      this.statement(e);
      if (i < program.exprs.length - 1) this.checkUsed(e);
    });
    const errors = this.diagnostics.filter((d) => d.severity === 'error');
    // Like VRL, a failed compilation reports its errors only.
    if (errors.length > 0) this.diagnostics = errors;
    else {
      this.diagnostics.push(...this.unusedValues);
      for (const d of this.declarations) {
        if (!d.read && !d.name.startsWith('_')) this.diagnostics.push(msg.unused(d.span, `variable \`${d.name}\``));
      }
    }
    const warnings = this.diagnostics.filter((d) => d.severity === 'warning');
    return {
      diagnostics: this.diagnostics,
      errors,
      warnings,
      types: this.types,
      calls: this.calls,
      target: this.state.target,
    };
  }

  private report(d: Diagnostic): undefined {
    this.diagnostics.push(d);
    return undefined;
  }

  /** The errors raised since `mark` are handled (or reported otherwise) by the construct that took the mark. */
  private handled(mark: number): void {
    this.unhandled.length = mark;
  }

  /** A statement whose value is dropped: a literal there (or leading an operation) does nothing (E900). */
  private checkUsed(e: ast.Expr): void {
    let first = e;
    while (first.type === 'Binary') first = first.left;
    if (first.type === 'Literal') this.unusedValues.push(msg.unused(first.span, `literal \`${display(first)}\``));
  }

  /** A root expression: the errors it leaves unhandled are reported here. */
  private statement(e: ast.Expr): TypeDef | undefined {
    const td = this.expr(e);
    for (const pending of this.unhandled.reverse()) {
      this.diagnostics.splice(pending.at, 0, pending.diagnostic ?? msg.unhandledError(pending.span));
    }
    this.unhandled = [];
    return td;
  }

  private expr(e: ast.Expr): TypeDef | undefined {
    const mark = this.unhandled.length;
    const td = this.exprInner(e);
    if (!td) return undefined;
    if (td.fallible && this.unhandled.length === mark) {
      this.unhandled.push({ span: e.span, diagnostic: this.unverifiedError(e), at: this.diagnostics.length });
    }
    this.types.set(e, td);
    return td;
  }

  private exprInner(e: ast.Expr): TypeDef | undefined {
    switch (e.type) {
      case 'Literal':
        return this.literal(e);
      case 'Template':
        return this.template(e);
      case 'Array':
        return this.array(e);
      case 'Object':
        return this.object(e);
      case 'Variable':
        return this.variable(e.name, e.span);
      case 'Query':
        return this.query(e);
      case 'Call':
        return this.call(e);
      case 'Unary':
        return this.not(e);
      case 'Binary':
        return e.op === '??' ? this.coalesce(e) : this.binary(e);
      case 'Assign':
        return this.assign(e);
      case 'If':
        return this.ifExpr(e);
      case 'Block':
        return this.block(e);
      case 'Group':
        return this.expr(e.expr);
      case 'Sequence':
        return this.blockBody(e);
      case 'Abort':
        return this.abort(e);
      case 'Return':
        return this.returnExpr(e);
    }
  }

  private literal(e: ast.Literal): TypeDef | undefined {
    const v = e.value;
    switch (v.kind) {
      case 'string':
        return { kind: BYTES, fallible: false };
      case 'integer':
        return { kind: INTEGER, fallible: false };
      case 'float':
        return { kind: FLOAT, fallible: false };
      case 'boolean':
        return { kind: BOOLEAN, fallible: false };
      case 'null':
        return { kind: NULL, fallible: false };
      case 'timestamp': {
        const read = readTimestampLiteral(v.text);
        return 'problem' in read
          ? this.report(msg.invalidTimestamp(e.span, read.problem))
          : { kind: TIMESTAMP, fallible: false };
      }
      case 'regex': {
        const problem = validateRegex(v.pattern);
        return problem ? this.report(msg.invalidRegex(e.span, problem)) : { kind: REGEX, fallible: false };
      }
    }
  }

  /** VRL joins a template's segments with `+`, so its type is that of the concatenation. */
  private template(e: ast.Template): TypeDef | undefined {
    let result: TypeDef | undefined;
    let ok = true;
    for (const part of e.parts) {
      const td = typeof part === 'string' ? { kind: BYTES, fallible: false } : this.expr(part);
      if (!td) {
        ok = false;
        continue;
      }
      if (!result) {
        result = td;
        continue;
      }
      const joined = operatorType('+', result.kind, td.kind);
      result = { kind: joined.kind, fallible: joined.fallible || result.fallible || td.fallible };
    }
    return ok ? (result ?? { kind: BYTES, fallible: false }) : undefined;
  }

  private array(e: ast.ArrayLit): TypeDef | undefined {
    const defs = this.untilFailure(e.items);
    if (!defs) return undefined;
    return { kind: exactArray(defs.map((d) => d.kind)), fallible: defs.some((d) => d.fallible) };
  }

  private object(e: ast.ObjectLit): TypeDef | undefined {
    const fields: Record<string, Kind> = {};
    let fallible = false;
    let ok = true;
    for (const entry of e.entries) {
      const td = this.expr(entry.value);
      if (!td) {
        ok = false;
        continue;
      }
      fields[entry.key] = td.kind;
      fallible ||= td.fallible;
    }
    return ok ? { kind: exactObject(fields), fallible } : undefined;
  }

  private variable(name: string, span: Span): TypeDef | undefined {
    const info = this.state.variable(name);
    if (!info) {
      if (this.failedTargets.has(name)) return undefined;
      const guess = msg.closest(name, [...this.state.variableNames(), ...BUILTIN_IDENTS]);
      return this.report(msg.undefinedVariable(span, guess));
    }
    info.declaration.read = true;
    return { kind: info.kind, fallible: false };
  }

  private query(e: ast.Query): TypeDef | undefined {
    const root = this.queryRoot(e);
    if (!root) return undefined;
    return { kind: kindAt(root.kind, e.path), fallible: root.fallible };
  }

  private queryRoot(e: ast.Query): TypeDef | undefined {
    switch (e.target.kind) {
      case 'event':
        return { kind: this.state.target, fallible: false };
      case 'metadata':
        return { kind: this.state.metadata, fallible: false };
      case 'variable':
        return this.variable(e.target.name, e.target.span);
      case 'expr':
        return this.expr(e.target.expr);
    }
  }

  // ---- function calls -------------------------------------------------------------------------------

  private call(e: ast.Call): TypeDef | undefined {
    const mark = this.unhandled.length;
    const argDefs = this.untilFailure(e.args.map((a) => a.value));
    if (!argDefs) return undefined;
    const def = lookupFunction(e.name);
    if (!def) return this.report(msg.undefinedFunction(e.nameSpan, msg.closest(e.name, functionNames())));
    const params = def.parameters;
    const bound = bindArguments(e, params);
    if (!(bound instanceof Map)) return this.report(bound);

    if (e.closure && !def.closure) return this.report(msg.unexpectedClosure(e.closure.span, e.span));

    // Argument kinds: disjoint is an error, overlapping makes the call fallible.
    const args: Record<string, ResolvedArgument | undefined> = {};
    let unverified: { arg: ast.Argument; param: Parameter; kind: Kind } | undefined;
    for (const param of params) {
      const index = bound.get(param);
      if (index === undefined) continue;
      const arg = e.args[index]!;
      const td = argDefs[index]!;
      const expected = fromBits(param.kinds);
      if (td.fallible) {
        this.handled(mark);
        return this.report(msg.fallibleArgument(arg.value.span));
      }
      // A value of no kind at all (elements of an empty literal) passes any parameter, as in VRL.
      if (td.kind.bits !== 0 && !intersects(td.kind, expected)) {
        return this.report(
          msg.invalidArgumentType(
            arg.value.span,
            arg.span,
            param.name,
            td.kind,
            expected,
            display(arg.value, COMPILED),
            callText(e),
          ),
        );
      }
      if (!isSubset(td.kind, expected)) unverified ??= { arg, param, kind: td.kind };
      const query = this.queryOf(arg.value);
      args[param.name] = {
        kind: td.kind,
        constant: this.constantOf(arg.value),
        span: arg.value.span,
        text: display(arg.value, COMPILED),
        ...(query ? { query } : {}),
        expr: arg.value,
      };
    }
    const missing = params.findIndex((p) => p.required && !bound.has(p));
    if (missing >= 0) return this.report(msg.missingArgument(e.span, params[missing]!.name, missing));

    const call: ResolvedCall = { def, args, order: [...bound.keys()], enrichmentTables: this.enrichmentTables };
    if (def.closure) {
      if (!e.closure) return this.report(msg.missingClosure(e.span, def.closure.example));
      const input = params[0] && args[params[0].name];
      if (input && !isSubset(input.kind, fromBits(params[0]!.kinds)))
        return this.report(msg.closureInputType(e.span, input.kind));
      const returns = this.closure(e, e.closure, def, call);
      if (!returns) return undefined;
      call.closureReturns = returns;
    }

    // With an argument of unverified kind the call is reported as such (E110/E103), before its own checks.
    const rejected =
      expectPaths(def, (param) => args[param.name]?.expr) ??
      (unverified && !e.abort ? undefined : (validateArguments(def, call) ?? def.validate?.(call)));
    if (rejected) return this.report(msg.functionCompilation(e.span, rejected.code, rejected.message, rejected.labels));
    const deleted = def.name === 'del' ? args.target?.expr : undefined;
    if (this.readOnlyEvent && deleted?.type === 'Query' && deleted.target.kind === 'event') {
      const context = `${display(deleted, COMPILED)} is read-only, and cannot be deleted`;
      return this.report(
        msg.functionCompilation(e.span, 315, 'mutation of read-only value', ['mutation of read-only value', context]),
      );
    }
    this.calls.set(e, call);

    if (deleted) this.deletePath(deleted);

    const fallible =
      (typeof def.fallible === 'function' ? def.fallible(call) : def.fallible) || unverified !== undefined;
    if (e.abort && !fallible) {
      this.report(msg.abortInfallible(e.nameSpan, [e.nameSpan[1], e.nameSpan[1] + 1]));
    }
    const kind = typeof def.returns === 'function' ? def.returns(call) : def.returns;
    if (unverified && !e.abort) this.unverified.set(e, unverified);
    return { kind, fallible: fallible && !e.abort };
  }

  /**
   * Calls that are fallible because an argument's kind can't be verified: unhandled they report E110 rather
   * than E100, assigned they explain E103 (the first such argument).
   */
  private unverified = new Map<ast.Expr, { arg: ast.Argument; param: Parameter; kind: Kind }>();

  /** The E110 an unhandled call with an argument of unverified kind reports. */
  private unverifiedError(e: ast.Expr): Diagnostic | undefined {
    const found = this.unverified.get(e);
    if (!found || e.type !== 'Call') return undefined;
    const { arg, param, kind } = found;
    // Unlike a kind mismatch, which labels the whole argument, this one labels the keyword only.
    return msg.invalidArgumentType(
      arg.value.span,
      arg.nameSpan ?? arg.value.span,
      param.name,
      kind,
      fromBits(param.kinds),
      display(arg.value, COMPILED),
      callText(e),
    );
  }

  private closure(e: ast.Call, closure: ast.Closure, def: FunctionDef, call: ResolvedCall): Kind | undefined {
    const spec = def.closure!;
    const variables = spec.variables(call);
    if (closure.params.length !== variables.length) {
      const params = closure.params;
      const span: Span = params.length ? [params[0]!.span[0], params[params.length - 1]!.span[1]] : closure.span;
      return this.report(msg.closureArity(e.nameSpan, span, variables.length, params.length));
    }
    const before = this.state.clone();
    this.state.pushScope();
    closure.params.forEach((p, i) => {
      const declaration: Declaration = { name: p.name, span: p.span, read: true };
      this.state.defineLocal(p.name, { kind: variables[i]!, declaration });
    });
    const outerReturned = this.returned;
    const returned: Kind[] = [];
    this.returned = returned;
    const body = this.blockBody(closure.body);
    this.returned = outerReturned;
    this.state.popScope();
    // The closure may run any number of times, including none.
    this.state.join(before);
    if (!body) return undefined;
    const kind = union(body.kind, ...returned);
    if (!isAny(spec.returns) && !isSubset(kind, spec.returns)) {
      return this.report(msg.closureReturnType(closure.body.span, spec.returns, kind));
    }
    return kind;
  }

  private deletePath(target: ast.Expr | undefined): void {
    if (target?.type !== 'Query') return;
    if (target.target.kind === 'event') this.state.target = deleteAt(this.state.target, target.path);
    else if (target.target.kind === 'metadata') this.state.metadata = deleteAt(this.state.metadata, target.path);
    // VRL keeps what it knew of a variable after `del` of one of its fields.
  }

  /** The root kind and path of a path argument into the event, metadata or a variable. */
  private queryOf(e: ast.Expr): ArgInfo['query'] {
    if (e.type !== 'Query') return undefined;
    const root =
      e.target.kind === 'event'
        ? this.state.target
        : e.target.kind === 'metadata'
          ? this.state.metadata
          : e.target.kind === 'variable'
            ? this.state.variable(e.target.name)?.kind
            : undefined;
    return root && { root, path: e.path };
  }

  /** A value known at compile time here: literals, containers of them, variables holding one. */
  private constantOf(e: ast.Expr): Constant | undefined {
    return constantOf(e, (name) => this.state.variable(name)?.constant);
  }

  // ---- operators ------------------------------------------------------------------------------------

  private not(e: ast.Unary): TypeDef | undefined {
    const operand = this.expr(e.operand);
    if (!operand) return undefined;
    if (!isExactly(operand.kind, K.Boolean))
      return this.report(msg.nonBooleanNegation(e.opSpan, e.operand.span, operand.kind));
    return { kind: BOOLEAN, fallible: operand.fallible };
  }

  private coalesce(e: ast.Binary): TypeDef | undefined {
    const mark = this.unhandled.length;
    const left = this.expr(e.left);
    if (!left) return undefined;
    this.handled(mark); // the left side's errors are handled by `??`
    const right = this.expr(e.right);
    if (!right) return undefined;
    if (!left.fallible) {
      this.handled(mark); // VRL drops the errors of an operation it refuses
      return this.report(msg.unnecessaryCoalesce(e.left.span, e.opSpan, e.right.span));
    }
    return { kind: union(left.kind, right.kind), fallible: right.fallible };
  }

  private binary(e: ast.Binary): TypeDef | undefined {
    const mark = this.unhandled.length;
    // As in VRL, a failed left side stops the operation (so a chain reports its first comparison only).
    const left = this.expr(e.left);
    if (!left) return undefined;
    const right = this.expr(e.right);
    if (!right) return undefined;
    // VRL refuses `a < b < c` and `a < b == c` alike: a comparison whose left side is one.
    if (isComparison(e.op) && e.left.type === 'Binary' && isComparison(e.left.op)) {
      this.handled(mark); // VRL drops the errors of an operation it refuses
      return this.report(msg.chainedComparison(e.opSpan));
    }
    if (e.op === '|') return this.merge(e, left, right, mark);
    const { kind, fallible } = operatorType(e.op as ArithmeticOrLogic, left.kind, right.kind, this.constantOf(e.right));
    return { kind, fallible: fallible || left.fallible || right.fallible };
  }

  /** `a | b`: both sides must be objects; fields of `b` win. */
  private merge(e: ast.Binary, left: TypeDef, right: TypeDef, mark: number): TypeDef | undefined {
    const nonObjects = [
      [e.left, left],
      [e.right, right],
    ] as const;
    const spans = nonObjects.filter(([, td]) => !isExactly(td.kind, K.Object)).map(([side]) => side.span);
    if (spans.length) {
      this.handled(mark);
      return this.report(msg.mergeNonObject(...spans));
    }
    return { kind: mergeObjects(left.kind, right.kind), fallible: left.fallible || right.fallible };
  }

  // ---- assignment -----------------------------------------------------------------------------------

  private assign(e: ast.Assign): TypeDef | undefined {
    const mark = this.unhandled.length;
    const value = this.expr(e.value);
    if (!value) {
      for (const t of [e.target, e.errorTarget]) {
        if (t?.kind === 'query' && t.query.target.kind === 'variable') this.failedTargets.add(t.query.target.name);
      }
      return undefined;
    }
    const targetSpan = targetSpanOf(e.target);
    if (e.errorTarget) {
      this.handled(mark);
      if (!value.fallible) {
        const use = `${displayTarget(e.target)} = ${display(e.value, COMPILED)}`;
        return this.report(msg.unnecessaryErrorAssignment(targetSpanOf(e.errorTarget), e.value.span, targetSpan, use));
      }
    } else if (value.fallible) {
      this.handled(mark);
      const hint = this.unverified.get(e.value);
      const suggestion = `${displayTarget(e.target)}, err = ${display(e.value, COMPILED)}`;
      return this.report(
        msg.unhandledFallibleAssignment(
          e.value.span,
          [targetSpan[0], e.opSpan[1]],
          suggestion,
          hint && {
            labels: [
              `\`${display(hint.arg.value, COMPILED)}\` argument type is \`${describe(hint.kind)}\` and this function expected a parameter \`${hint.param.name}\` of type \`${describe(fromBits(hint.param.kinds))}\``,
              `update the expression to be infallible by adding a \`!\`: \`${callText({ ...(e.value as ast.Call), abort: true })}\``,
            ],
          },
        ),
      );
    }
    if (e.target.kind === 'noop' && !e.errorTarget) {
      return this.report(msg.noopAssignment(e.value.span, targetSpan, [targetSpan[0], e.opSpan[1]]));
    }
    if (this.readOnlyEvent) {
      // VRL's spans: up to the value for `target = value`, the target itself in `ok, err = value`.
      const writes: [ast.AssignTarget | undefined, Span][] = e.errorTarget
        ? [
            [e.target, targetSpan],
            [e.errorTarget, targetSpanOf(e.errorTarget)],
          ]
        : [[e.target, [targetSpan[0], e.value.span[0] - 1]]];
      for (const [target, span] of writes) {
        if (target?.kind === 'query' && target.query.target.kind === 'event') {
          return this.report(msg.readOnlyMutation(span));
        }
      }
    }

    // A stored value is never undefined: a missing path reads as null.
    let kind = readable(value.kind);
    if (e.op === '|=') {
      const current = this.targetKind(e.target);
      if (current && !isExactly(current, K.Object)) return this.report(msg.mergeNonObject(targetSpan));
      if (!isExactly(value.kind, K.Object)) return this.report(msg.mergeNonObject(e.value.span));
      kind = mergeObjects(current ?? objectOf(undefined), value.kind);
    }
    if (!this.assignTarget(e, e.target, kind, this.constantOf(e.value))) return undefined;
    if (e.errorTarget && !this.assignTarget(e, e.errorTarget, union(BYTES, NULL))) return undefined;
    return { kind: value.kind, fallible: false };
  }

  private targetKind(t: ast.AssignTarget): Kind | undefined {
    if (t.kind === 'noop') return undefined;
    const q = t.query;
    switch (q.target.kind) {
      case 'event':
        return readable(kindAt(this.state.target, q.path));
      case 'metadata':
        return readable(kindAt(this.state.metadata, q.path));
      case 'variable': {
        const info = this.state.variable(q.target.name);
        return info ? readable(kindAt(info.kind, q.path)) : undefined;
      }
      case 'expr':
        return undefined;
    }
  }

  /** Records the new kind of an assignment target; false when the path can't be written (E642). */
  private assignTarget(e: ast.Assign, t: ast.AssignTarget, kind: Kind, constant?: Constant): boolean {
    if (t.kind === 'noop') return true;
    const q = t.query;
    const root =
      q.target.kind === 'event'
        ? this.state.target
        : q.target.kind === 'metadata'
          ? this.state.metadata
          : q.target.kind === 'variable'
            ? this.state.variable(q.target.name)?.kind
            : undefined;
    if (root) {
      for (let i = 0; i < q.path.length; i++) {
        const seg = q.path[i]!;
        const parent = kindAt(root, q.path.slice(0, i));
        if (rejectsSegment(parent, seg)) {
          const parentSpan: Span = [
            q.span[0],
            i === 0 ? (q.target.kind === 'variable' ? q.target.span[1] : q.span[0] + 1) : q.path[i - 1]!.span[1],
          ];
          const parentText = displayQuery({ ...q, path: q.path.slice(0, i) });
          this.report(
            msg.invalidParentSegment(
              seg.span,
              parentSpan,
              readable(parent),
              seg.kind === 'index' ? 'array' : 'object',
              parentText,
              display(e, COMPILED),
            ),
          );
          return false;
        }
      }
    }
    switch (q.target.kind) {
      case 'event':
        this.state.target = assignAt(this.state.target, q.path, kind);
        break;
      case 'metadata':
        this.state.metadata = assignAt(this.state.metadata, q.path, kind);
        break;
      case 'variable': {
        const name = q.target.name;
        const existing = this.state.variable(name);
        let declaration = existing?.declaration;
        if (!declaration) {
          declaration = { name, span: q.target.span, read: false };
          this.declarations.push(declaration);
        }
        const newKind = assignAt(existing?.kind ?? NULL, q.path, kind);
        this.state.setVariable(name, {
          kind: newKind,
          constant: q.path.length === 0 ? constant : undefined,
          declaration,
        });
        break;
      }
      case 'expr':
        break;
    }
    return true;
  }

  // ---- control flow ---------------------------------------------------------------------------------

  private ifExpr(e: ast.If): TypeDef | undefined {
    const predicate = this.expr(e.predicate);
    if (!predicate) return undefined;
    if (!isExactly(predicate.kind, K.Boolean))
      return this.report(msg.nonBooleanPredicate(e.predicate.span, predicate.kind));
    const before = this.state.clone();
    const then = this.block(e.then);
    if (!then) return undefined; // as in VRL, a failed branch stops the statement: `else` is not checked
    const afterThen = this.state;
    this.state = before;
    const otherwise = e.else
      ? e.else.type === 'If'
        ? this.expr(e.else)
        : this.block(e.else)
      : { kind: NULL, fallible: false };
    this.state.join(afterThen);
    if (!otherwise) return undefined;
    return {
      kind: union(then.kind, otherwise.kind),
      fallible: predicate.fallible || then.fallible || otherwise.fallible,
    };
  }

  private block(e: ast.Block): TypeDef | undefined {
    this.state.pushScope();
    const td = this.blockBody(e);
    this.state.popScope();
    return td;
  }

  /** The expressions of a block (or predicate sequence) in the current scope; its type is the last one's. */
  private blockBody(e: ast.Block | ast.Sequence): TypeDef | undefined {
    const defs = this.untilFailure(e.exprs);
    if (!defs) return undefined;
    return { kind: defs.at(-1)?.kind ?? NULL, fallible: defs.some((d) => d.fallible) };
  }

  /**
   * The types of expressions checked in order, or undefined at the first that fails: like VRL, the rest
   * are not checked (an object literal's values are the exception, see `object`).
   */
  private untilFailure(exprs: readonly ast.Expr[]): TypeDef[] | undefined {
    const defs: TypeDef[] = [];
    for (const expr of exprs) {
      const td = this.expr(expr);
      if (!td) return undefined;
      defs.push(td);
    }
    return defs;
  }

  /** Like an abort message, a returned value must not fail (E631, which VRL labels on the keyword). */
  private returnExpr(e: ast.Return): TypeDef | undefined {
    const mark = this.unhandled.length;
    const value = this.expr(e.value);
    if (!value) return undefined;
    if (value.fallible) {
      this.handled(mark);
      return this.report(msg.fallibleReturnValue([e.span[0], e.span[0] + 'return'.length]));
    }
    this.returned?.push(value.kind);
    return { kind: NEVER, fallible: false };
  }

  private abort(e: ast.Abort): TypeDef | undefined {
    if (e.message) {
      const mark = this.unhandled.length;
      const message = this.expr(e.message);
      if (!message) return undefined;
      if (message.fallible) {
        this.handled(mark);
        return this.report(msg.fallibleAbortMessage(e.message.span));
      }
      // VRL's test is "no kind but bytes", which `never` passes: `abort abort "x"` aborts with "x".
      if (!isSubset(message.kind, BYTES)) return this.report(msg.nonStringAbortMessage(e.message.span, message.kind));
    }
    return { kind: NEVER, fallible: false };
  }
}

function targetSpanOf(t: ast.AssignTarget): Span {
  return t.kind === 'noop' ? t.span : t.query.span;
}
