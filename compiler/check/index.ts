// The type checker: walks the AST with VRL's type lattice and progressive state, enforces fallibility
// handling and argument kinds, and reports VRL's compile-time diagnostics. Output: diagnostics and the
// type of every expression (for the code generator).

import type * as ast from '../ast.js';
import type { Span } from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { lookupFunction, functionNames } from '../functions/index.js';
import type { ArgInfo, CallInfo, Constant, FunctionDef, Parameter } from '../functions/define.js';
import {
  BOOLEAN, BYTES, FLOAT, INTEGER, K, NEVER, NULL, REGEX, TIMESTAMP, describe, exactArray, exactObject,
  fromBits, intersects, isAny, isExactly, isSubset, objectOf, readable, union, type Kind,
} from '../types/kind.js';
import { display, displayQuery, displayTarget } from './display.js';
import * as msg from './messages.js';
import { validateRegex } from '../../abi/regex.js';
import { TIMESTAMP_RANGE } from '../../abi/values.js';
import { TypeState, type Declaration } from './state.js';
import { assignAt, deleteAt, kindAt, rejectsSegment } from '../types/path.js';

export interface TypeDef {
  kind: Kind;
  fallible: boolean;
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
  /** Resolved function of each call (seed or alias name). */
  functions: Map<ast.Call, FunctionDef>;
  /** Kind of the event after the program, as far as known. */
  target: Kind;
}

const NUMERIC = K.Integer | K.Float;

/** VRL's names of expression kinds, as its messages print them. */
const EXPRESSION_NAMES: Record<ast.Expr['type'], string> = {
  Literal: 'literal', Template: 'literal', Array: 'container', Object: 'container', Block: 'container', Group: 'container', Sequence: 'container',
  Query: 'query', Variable: 'variable call', Call: 'function call', Unary: 'unary operation', Binary: 'operation',
  Assign: 'assignment', If: 'if-statement', Abort: 'abort operation', Return: 'return',
};
const BUILTIN_IDENTS = ['null', 'true', 'false'];

/** What is known before the program starts: the REPL carries the event and variables between lines. */
export interface CheckContext {
  target?: Kind;
  /** Variables already defined, in slot order. */
  variables?: ReadonlyMap<string, Kind>;
}

/** Checks a parsed program. */
export function check(program: ast.Program, context: CheckContext = {}): CheckResult {
  return new Checker(context).run(program);
}

class Checker {
  private diagnostics: Diagnostic[] = [];
  private types = new Map<ast.Expr, TypeDef>();
  private functions = new Map<ast.Call, FunctionDef>();
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

  constructor(context: CheckContext) {
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
    return { diagnostics: this.diagnostics, errors, warnings, types: this.types, functions: this.functions, target: this.state.target };
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
      case 'Literal': return this.literal(e);
      case 'Template': return this.template(e);
      case 'Array': return this.array(e);
      case 'Object': return this.object(e);
      case 'Variable': return this.variable(e.name, e.span);
      case 'Query': return this.query(e);
      case 'Call': return this.call(e);
      case 'Unary': return this.not(e);
      case 'Binary': return e.op === '??' ? this.coalesce(e) : this.binary(e);
      case 'Assign': return this.assign(e);
      case 'If': return this.ifExpr(e);
      case 'Block': return this.block(e);
      case 'Group': return this.expr(e.expr);
      case 'Sequence': return this.blockBody(e);
      case 'Abort': return this.abort(e);
      case 'Return': return this.returnExpr(e);
    }
  }

  private literal(e: ast.Literal): TypeDef | undefined {
    const v = e.value;
    switch (v.kind) {
      case 'string': return { kind: BYTES, fallible: false };
      case 'integer': return { kind: INTEGER, fallible: false };
      case 'float': return { kind: FLOAT, fallible: false };
      case 'boolean': return { kind: BOOLEAN, fallible: false };
      case 'null': return { kind: NULL, fallible: false };
      case 'timestamp': {
        const problem = timestampProblem(v.text);
        return problem ? this.report(msg.invalidTimestamp(e.span, problem)) : { kind: TIMESTAMP, fallible: false };
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
      if (!td) { ok = false; continue; }
      if (!result) { result = td; continue; }
      const joined = operatorType('+', result.kind, td.kind);
      result = { kind: joined.kind, fallible: joined.fallible || result.fallible || td.fallible };
    }
    return ok ? result ?? { kind: BYTES, fallible: false } : undefined;
  }

  private array(e: ast.ArrayLit): TypeDef | undefined {
    const items = e.items.map((i) => this.expr(i));
    if (items.some((i) => !i)) return undefined;
    const defs = items as TypeDef[];
    return { kind: exactArray(defs.map((d) => d.kind)), fallible: defs.some((d) => d.fallible) };
  }

  private object(e: ast.ObjectLit): TypeDef | undefined {
    const fields: Record<string, Kind> = {};
    let fallible = false;
    let ok = true;
    for (const entry of e.entries) {
      const td = this.expr(entry.value);
      if (!td) { ok = false; continue; }
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
      case 'event': return { kind: this.state.target, fallible: false };
      case 'metadata': return { kind: this.state.metadata, fallible: false };
      case 'variable': return this.variable(e.target.name, e.target.span);
      case 'expr': return this.expr(e.target.expr);
    }
  }

  // ---- function calls -------------------------------------------------------------------------------

  private call(e: ast.Call): TypeDef | undefined {
    const mark = this.unhandled.length;
    const argDefs = e.args.map((a) => this.expr(a.value));
    const def = lookupFunction(e.name);
    if (!def) return this.report(msg.undefinedFunction(e.nameSpan, msg.closest(e.name, functionNames())));
    if (argDefs.some((a) => !a)) return undefined;
    this.functions.set(e, def);
    const params = def.parameters;
    if (e.args.length > params.length) {
      const span: Span = [e.args[0]!.span[0], e.args[e.args.length - 1]!.span[1]];
      return this.report(msg.tooManyArguments(span, params.length));
    }

    // Match arguments to parameters: keywords by name, the others in order.
    const bound = new Map<Parameter, { arg: ast.Argument; td: TypeDef }>();
    let position = 0;
    for (const [i, arg] of e.args.entries()) {
      let param: Parameter | undefined;
      if (arg.name !== undefined) {
        param = params.find((p) => p.name === arg.name);
        if (!param) {
          return this.report(msg.unknownKeyword(arg.nameSpan ?? arg.span, e.nameSpan, params.map((p) => p.name)));
        }
      } else {
        while (position < params.length && bound.has(params[position]!)) position++;
        param = params[position++];
      }
      if (!param || bound.has(param)) {
        const span: Span = [e.args[0]!.span[0], e.args[e.args.length - 1]!.span[1]];
        return this.report(msg.tooManyArguments(span, params.length));
      }
      bound.set(param, { arg, td: argDefs[i]! });
    }

    if (e.closure && !def.closure) return this.report(msg.unexpectedClosure(e.closure.span, e.span));

    // Argument kinds: disjoint is an error, overlapping makes the call fallible.
    const args: Record<string, ArgInfo | undefined> = {};
    let unverified: { arg: ast.Argument; param: Parameter; kind: Kind } | undefined;
    for (const param of params) {
      const b = bound.get(param);
      if (!b) continue;
      const expected = fromBits(param.kinds);
      if (b.td.fallible) {
        this.handled(mark);
        return this.report(msg.fallibleArgument(b.arg.value.span));
      }
      // A value of no kind at all (elements of an empty literal) passes any parameter, as in VRL.
      if (b.td.kind.bits !== 0 && !intersects(b.td.kind, expected)) {
        return this.report(msg.invalidArgumentType(
          b.arg.value.span, b.arg.span, param.name, b.td.kind, expected, display(b.arg.value, COMPILED), callText(e),
        ));
      }
      if (!isSubset(b.td.kind, expected)) unverified ??= { arg: b.arg, param, kind: b.td.kind };
      const constant = this.constantOf(b.arg.value);
      const query = this.queryOf(b.arg.value);
      args[param.name] = {
        kind: b.td.kind, constant, span: b.arg.value.span, text: display(b.arg.value, COMPILED), ...(query ? { query } : {}),
      };
    }
    const missing = params.findIndex((p) => p.required && !bound.has(p));
    if (missing >= 0) return this.report(msg.missingArgument(e.span, params[missing]!.name, missing));

    const call: { args: typeof args; closureReturns?: Kind } = { args };
    if (def.closure) {
      if (!e.closure) return this.report(msg.missingClosure(e.span, def.closure.example));
      const input = params[0] && args[params[0].name];
      if (input && !isSubset(input.kind, fromBits(params[0]!.kinds))) return this.report(msg.closureInputType(e.span, input.kind));
      const returns = this.closure(e, e.closure, def, call);
      if (!returns) return undefined;
      call.closureReturns = returns;
    }

    // With an argument of unverified kind the call is reported as such (E110/E103), before its own checks.
    const rejected = this.expectPaths(def, bound)
      ?? (unverified && !e.abort ? undefined : this.validateArguments(def, call) ?? def.validate?.(call));
    if (rejected) return this.report(msg.functionCompilation(e.span, rejected.code, rejected.message, rejected.labels));

    if (def.name === 'del') this.deletePath(e);

    const fallible = (typeof def.fallible === 'function' ? def.fallible(call) : def.fallible) || unverified !== undefined;
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
    return msg.invalidArgumentType(arg.value.span, arg.nameSpan ?? arg.value.span, param.name, kind,
      fromBits(param.kinds), display(arg.value, COMPILED), callText(e));
  }

  /** Parameters that take a path, not a value (VRL's E400, wrapped in E610). */
  private expectPaths(def: FunctionDef, bound: Map<Parameter, { arg: ast.Argument }>) {
    for (const param of def.parameters) {
      const value = bound.get(param)?.arg.value;
      if (!param.path || !value || value.type === 'Query') continue;
      return {
        code: 400,
        message: 'unexpected expression type',
        labels: [`unexpected expression for argument "${param.name}"`, `received: ${EXPRESSION_NAMES[value.type]}`, 'expected: query'],
      };
    }
    return undefined;
  }

  /** Enum values and literal-only parameters (VRL's E401/E402, wrapped in E610). */
  private validateArguments(def: FunctionDef, call: CallInfo) {
    for (const param of def.parameters) {
      const arg = call.args[param.name];
      if (!arg) continue;
      if ((param.literal ?? param.enum !== undefined) && !arg.constant) {
        return { code: 402, message: 'expected static expression', labels: [`expected static expression for argument "${param.name}"`, `received: ${arg.text}`] };
      }
      if (param.enum && param.literal !== false && arg.constant) {
        // An array parameter with an enum takes a list of its values (snakecase's excluded_boundaries).
        const values = arg.constant.kind === 'array' ? arg.constant.items : [arg.constant];
        if (!values.every((v) => v.kind === 'string' && param.enum!.includes(v.value))) {
          return {
            code: 401,
            message: 'invalid enum variant"', // sic: VRL prints a stray quote here
            labels: [
              `invalid enum variant for argument "${param.name}"`,
              `received: ${arg.text}`,
              `expected one of: ${param.enum.map((v) => `"${v}"`).join(', ')}`,
            ],
          };
        }
      }
    }
    return undefined;
  }

  private closure(e: ast.Call, closure: ast.Closure, def: FunctionDef, call: CallInfo): Kind | undefined {
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

  private deletePath(e: ast.Call): void {
    const target = e.args[0]?.value;
    if (target?.type !== 'Query') return;
    if (target.target.kind === 'event') this.state.target = deleteAt(this.state.target, target.path);
    else if (target.target.kind === 'metadata') this.state.metadata = deleteAt(this.state.metadata, target.path);
    // VRL keeps what it knew of a variable after `del` of one of its fields.
  }

  /** The root kind and path of a path argument into the event, metadata or a variable. */
  private queryOf(e: ast.Expr): ArgInfo['query'] {
    if (e.type !== 'Query') return undefined;
    const root = e.target.kind === 'event' ? this.state.target
      : e.target.kind === 'metadata' ? this.state.metadata
        : e.target.kind === 'variable' ? this.state.variable(e.target.name)?.kind : undefined;
    return root && { root, path: e.path };
  }

  /** A value known at compile time: literals, containers of them, variables holding one. */
  private constantOf(e: ast.Expr): Constant | undefined {
    switch (e.type) {
      case 'Literal': return e.value;
      case 'Template': return e.parts.every((p) => typeof p === 'string') ? { kind: 'string', value: e.parts.join('') } : undefined;
      case 'Group': return this.constantOf(e.expr);
      case 'Array': {
        const items = e.items.map((i) => this.constantOf(i));
        return items.every((i) => i) ? { kind: 'array', items: items as Constant[] } : undefined;
      }
      case 'Object': {
        const fields = new Map<string, Constant>();
        for (const entry of e.entries) {
          const c = this.constantOf(entry.value);
          if (!c) return undefined;
          fields.set(entry.key, c);
        }
        return { kind: 'object', fields };
      }
      case 'Variable': return this.state.variable(e.name)?.constant;
      case 'Query': return e.target.kind === 'variable' && e.path.length === 0 ? this.state.variable(e.target.name)?.constant : undefined;
      default: return undefined;
    }
  }

  // ---- operators ------------------------------------------------------------------------------------

  private not(e: ast.Unary): TypeDef | undefined {
    const operand = this.expr(e.operand);
    if (!operand) return undefined;
    if (!isExactly(operand.kind, K.Boolean)) return this.report(msg.nonBooleanNegation(e.opSpan, e.operand.span, operand.kind));
    return { kind: BOOLEAN, fallible: operand.fallible };
  }

  private coalesce(e: ast.Binary): TypeDef | undefined {
    const mark = this.unhandled.length;
    const left = this.expr(e.left);
    this.handled(mark); // the left side's errors are handled by `??`
    const right = this.expr(e.right);
    if (!left || !right) return undefined;
    if (!left.fallible) return this.report(msg.unnecessaryCoalesce(e.left.span, e.opSpan, e.right.span));
    return { kind: union(left.kind, right.kind), fallible: right.fallible };
  }

  private binary(e: ast.Binary): TypeDef | undefined {
    const left = this.expr(e.left);
    const right = this.expr(e.right);
    if (!left || !right) return undefined;
    if (e.op === '|') return this.merge(e, left, right);
    const { kind, fallible } = operatorType(e.op as ArithmeticOrLogic, left.kind, right.kind, this.constantOf(e.right));
    return { kind, fallible: fallible || left.fallible || right.fallible };
  }

  /** `a | b`: both sides must be objects; fields of `b` win. */
  private merge(e: ast.Binary, left: TypeDef, right: TypeDef): TypeDef | undefined {
    const nonObjects = [[e.left, left], [e.right, right]] as const;
    const spans = nonObjects.filter(([, td]) => !isExactly(td.kind, K.Object)).map(([side]) => side.span);
    if (spans.length) return this.report(msg.mergeNonObject(...spans));
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
      return this.report(msg.unhandledFallibleAssignment(e.value.span, [targetSpan[0], e.opSpan[1]], suggestion, hint && {
        labels: [
          `\`${display(hint.arg.value, COMPILED)}\` argument type is \`${describe(hint.kind)}\` and this function expected a parameter \`${hint.param.name}\` of type \`${describe(fromBits(hint.param.kinds))}\``,
          `update the expression to be infallible by adding a \`!\`: \`${callText({ ...(e.value as ast.Call), abort: true })}\``,
        ],
      }));
    }
    if (e.target.kind === 'noop' && !e.errorTarget) {
      return this.report(msg.noopAssignment(e.value.span, targetSpan, [targetSpan[0], e.opSpan[1]]));
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
      case 'event': return readable(kindAt(this.state.target, q.path));
      case 'metadata': return readable(kindAt(this.state.metadata, q.path));
      case 'variable': {
        const info = this.state.variable(q.target.name);
        return info ? readable(kindAt(info.kind, q.path)) : undefined;
      }
      case 'expr': return undefined;
    }
  }

  /** Records the new kind of an assignment target; false when the path can't be written (E642). */
  private assignTarget(e: ast.Assign, t: ast.AssignTarget, kind: Kind, constant?: Constant): boolean {
    if (t.kind === 'noop') return true;
    const q = t.query;
    const root = q.target.kind === 'event' ? this.state.target
      : q.target.kind === 'metadata' ? this.state.metadata
        : q.target.kind === 'variable' ? this.state.variable(q.target.name)?.kind : undefined;
    if (root) {
      for (let i = 0; i < q.path.length; i++) {
        const seg = q.path[i]!;
        const parent = kindAt(root, q.path.slice(0, i));
        if (rejectsSegment(parent, seg)) {
          const parentSpan: Span = [q.span[0], i === 0 ? (q.target.kind === 'variable' ? q.target.span[1] : q.span[0] + 1) : q.path[i - 1]!.span[1]];
          const parentText = displayQuery({ ...q, path: q.path.slice(0, i) });
          this.report(msg.invalidParentSegment(seg.span, parentSpan, readable(parent), seg.kind === 'index' ? 'array' : 'object',
            parentText, display(e, COMPILED)));
          return false;
        }
      }
    }
    switch (q.target.kind) {
      case 'event': this.state.target = assignAt(this.state.target, q.path, kind); break;
      case 'metadata': this.state.metadata = assignAt(this.state.metadata, q.path, kind); break;
      case 'variable': {
        const name = q.target.name;
        const existing = this.state.variable(name);
        let declaration = existing?.declaration;
        if (!declaration) {
          declaration = { name, span: q.target.span, read: false };
          this.declarations.push(declaration);
        }
        const newKind = assignAt(existing?.kind ?? NULL, q.path, kind);
        this.state.setVariable(name, { kind: newKind, constant: q.path.length === 0 ? constant : undefined, declaration });
        break;
      }
      case 'expr': break;
    }
    return true;
  }

  // ---- control flow ---------------------------------------------------------------------------------

  private ifExpr(e: ast.If): TypeDef | undefined {
    const predicate = this.expr(e.predicate);
    if (!predicate) return undefined;
    if (!isExactly(predicate.kind, K.Boolean)) return this.report(msg.nonBooleanPredicate(e.predicate.span, predicate.kind));
    const before = this.state.clone();
    const then = this.block(e.then);
    const afterThen = this.state;
    this.state = before;
    const otherwise = e.else ? (e.else.type === 'If' ? this.expr(e.else) : this.block(e.else)) : { kind: NULL, fallible: false };
    this.state.join(afterThen);
    if (!then || !otherwise) return undefined;
    return { kind: union(then.kind, otherwise.kind), fallible: predicate.fallible || then.fallible || otherwise.fallible };
  }

  private block(e: ast.Block): TypeDef | undefined {
    this.state.pushScope();
    const td = this.blockBody(e);
    this.state.popScope();
    return td;
  }

  /** The expressions of a block (or predicate sequence) in the current scope; its type is the last one's. */
  private blockBody(e: ast.Block | ast.Sequence): TypeDef | undefined {
    let last: TypeDef | undefined = { kind: NULL, fallible: false };
    let fallible = false;
    let ok = true;
    for (const expr of e.exprs) {
      last = this.expr(expr);
      if (!last) ok = false;
      else fallible ||= last.fallible;
    }
    return ok && last ? { kind: last.kind, fallible } : undefined;
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
      if (!isExactly(message.kind, K.Bytes)) return this.report(msg.nonStringAbortMessage(e.message.span, message.kind));
    }
    return { kind: NEVER, fallible: false };
  }
}

function targetSpanOf(t: ast.AssignTarget): Span {
  return t.kind === 'noop' ? t.span : t.query.span;
}

/** VRL quotes programs in its suggestions as compiled expressions (see display.ts). */
const COMPILED = { compiled: true } as const;

/** How VRL prints a call in its notes: the call's own `!`, its arguments as compiled. */
function callText(e: ast.Call): string {
  return `${e.name}${e.abort ? '!' : ''}(${e.args.map((a) => display(a.value, COMPILED)).join(', ')})`;
}

function mergeObjects(to: Kind, from: Kind): Kind {
  const known = new Map(to.object?.known ?? []);
  for (const [k, v] of from.object?.known ?? []) known.set(k, v);
  const unknowns = [to.object?.unknown, from.object?.unknown].filter((u): u is Kind => !!u);
  return objectOf(unknowns.length ? union(...unknowns) : undefined, known);
}

const isNonZero = (c: Constant | undefined): boolean =>
  (c?.kind === 'integer' && c.value !== 0n) || (c?.kind === 'float' && c.value !== 0);

/** Numeric result of int/float arithmetic: integer only when both sides are integers. */
function numeric(l: Kind, r: Kind): Kind {
  if (isExactly(l, K.Integer) && isExactly(r, K.Integer)) return INTEGER;
  if (isExactly(l, K.Float) || isExactly(r, K.Float)) return FLOAT;
  return union(INTEGER, FLOAT);
}

/** Result kind and fallibility of a binary operator, as VRL's type rules give them. */
/** Operators typed by their operand kinds alone (`??` and `|` are checked by `coalesce` and `merge`). */
type ArithmeticOrLogic = Exclude<ast.BinaryOp, '??' | '|'>;

export function operatorType(op: ArithmeticOrLogic, l: Kind, r: Kind, rightConstant?: Constant): TypeDef {
  const bothNumeric = isSubset(l, fromBits(NUMERIC)) && isSubset(r, fromBits(NUMERIC)) && l.bits !== 0 && r.bits !== 0;
  switch (op) {
    case '==':
    case '!=':
      return { kind: BOOLEAN, fallible: false };
    case '<': case '<=': case '>': case '>=': {
      const comparable = bothNumeric || (isExactly(l, K.Bytes) && isExactly(r, K.Bytes))
        || (isExactly(l, K.Timestamp) && isExactly(r, K.Timestamp));
      return { kind: BOOLEAN, fallible: !comparable };
    }
    case '&&':
      return { kind: BOOLEAN, fallible: !isSubset(l, fromBits(K.Boolean | K.Null)) };
    case '||':
      return { kind: union(l, r), fallible: false };
    case '+': {
      if (bothNumeric) return { kind: numeric(l, r), fallible: false };
      const bytesOrNull = (k: Kind) => isSubset(k, fromBits(K.Bytes | K.Null));
      if (bytesOrNull(l) && bytesOrNull(r) && (isExactly(l, K.Bytes) || isExactly(r, K.Bytes))) return { kind: BYTES, fallible: false };
      return { kind: union(BYTES, INTEGER, FLOAT), fallible: true };
    }
    case '-':
      return bothNumeric ? { kind: numeric(l, r), fallible: false } : { kind: union(INTEGER, FLOAT), fallible: true };
    case '*': {
      if (bothNumeric) return { kind: numeric(l, r), fallible: false };
      const repeat = (isExactly(l, K.Bytes) && isExactly(r, K.Integer)) || (isExactly(l, K.Integer) && isExactly(r, K.Bytes));
      return repeat ? { kind: BYTES, fallible: false } : { kind: union(BYTES, INTEGER, FLOAT), fallible: true };
    }
    case '/':
      return { kind: FLOAT, fallible: !(bothNumeric && isNonZero(rightConstant)) };
    case '%':
      return { kind: bothNumeric ? numeric(l, r) : union(INTEGER, FLOAT), fallible: !(bothNumeric && isNonZero(rightConstant)) };
  }
}

export const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Why a timestamp literal is not RFC 3339 (VRL parses them with chrono's RFC 3339 parser), or undefined. */
export function timestampProblem(text: string): string | undefined {
  const m = RFC3339.exec(text);
  if (!m) return /^[\d:.TtZz+ -]*$/.test(text) ? 'premature end of input' : 'input contains invalid characters';
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) {
    return 'input is out of range';
  }
  // VRL (chrono) goes on for ±262,000 years; svc's timestamps are i64 nanoseconds.
  const nanos = timestampNanos(text);
  if (nanos < -(2n ** 63n) || nanos >= 2n ** 63n) return `input is outside the range of svc timestamps, ${TIMESTAMP_RANGE}`;
  return undefined;
}

/** Nanoseconds since the epoch of a timestamp literal (matching RFC3339). */
export function timestampNanos(text: string): bigint {
  const m = RFC3339.exec(text);
  if (!m) throw new Error(`invalid timestamp literal ${text}`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const zone = m[8]!;
  const offsetMinutes = /z/i.test(zone) ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const fraction = BigInt((m[7] ?? '.').slice(1).padEnd(9, '0').slice(0, 9));
  return (BigInt(date.getTime() / 1000) - BigInt(offsetMinutes * 60)) * 1_000_000_000n + fraction;
}

