// Ohm semantics turning a successful match of the remap grammar into the AST of ../ast.ts, and
// collecting the problems VRL reports while parsing a well-formed token stream: bad escapes,
// numbers out of range and reserved identifiers.

import type { MatchResult, Node } from 'ohm-js';
import type {
  Argument,
  AssignTarget,
  BinaryOp,
  Block,
  Call,
  Closure,
  Expr,
  If,
  LiteralValue,
  ObjectEntry,
  PathSegment,
  Query,
  QueryTarget,
  Span,
  Variable,
} from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { grammar } from './grammar.js';
import { invalidEscape, invalidNumericLiteral, reservedKeyword } from './errors.js';
import { decodeString, floatValue, integerValue, regexPattern, RESERVED_IDENTIFIERS } from './lexical.js';

/** A problem found while building, at a UTF-16 index of the source; `parse` reports one of them. */
export interface Issue {
  at: number;
  diagnostic: Diagnostic;
}

interface BuildState {
  /** Byte offset of a UTF-16 index of the matched text. */
  byte: (index: number) => number;
  /** UTF-16 index of the matched text in the program. */
  offset: number;
  issues: Issue[];
}

// The state of the build in progress: building is synchronous and never re-entered.
let state: BuildState;

const spanOf = (node: Node): Span => [state.byte(node.source.startIdx), state.byte(node.source.endIdx)];
const ast = <T>(node: Node): T => node.ast() as T;
const optional = <T>(iter: Node): T | undefined => (iter.numChildren ? ast<T>(iter.children[0]!) : undefined);
const listItems = (list: Node): Node[] => list.asIteration().children;

function report(at: number, diagnostic: Diagnostic): void {
  state.issues.push({ at: state.offset + at, diagnostic });
}

/** A variable name, refused (E205) when VRL reserves it. */
function checkIdentifier(node: Node): string {
  const name = node.sourceString;
  if (RESERVED_IDENTIFIERS.has(name)) report(node.source.startIdx, reservedKeyword(spanOf(node)));
  return name;
}

/** VRL's binary operator precedence (higher binds tighter); every operator is left-associative. */
const PRECEDENCE: Readonly<Record<BinaryOp, number>> = {
  '??': 1,
  '&&': 2,
  '||': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '|': 5,
  '+': 6,
  '-': 6,
  '*': 7,
  '/': 7,
  '%': 7,
};

function binary(left: Expr, op: Node, right: Expr): Expr {
  const opText = op.sourceString as BinaryOp;
  return { type: 'Binary', span: [left.span[0], right.span[1]], op: opText, opSpan: spanOf(op), left, right };
}

/** Builds the tree of `operand (op operand)*` by operator precedence. */
function operatorChain(first: Node, ops: Node, operands: Node): Expr {
  const values: Expr[] = [ast<Expr>(first)];
  const pending: Node[] = [];
  const reduce = () => {
    const right = values.pop()!;
    values.push(binary(values.pop()!, pending.pop()!, right));
  };
  ops.children.forEach((op, i) => {
    const precedence = PRECEDENCE[op.sourceString as BinaryOp];
    while (pending.length && PRECEDENCE[pending[pending.length - 1]!.sourceString as BinaryOp] >= precedence) reduce();
    pending.push(op);
    values.push(ast<Expr>(operands.children[i]!));
  });
  while (pending.length) reduce();
  return values[0]!;
}

function query(this: Node, target: QueryTarget, path: PathSegment[]): Query {
  return { type: 'Query', span: spanOf(this), target, path };
}

/** A string literal's text without templates (object keys, quoted fields), reporting bad escapes. */
function plainString(node: Node): string {
  const body = node.sourceString.slice(1, -1);
  const decoded = decodeString(body, node.source.startIdx + 1, false);
  if (!decoded.ok) return badEscape(decoded.at, decoded.invalidEscape);
  return decoded.parts.join('');
}

/** Reports an invalid escape at UTF-16 index `at`; the literal's value no longer matters. */
function badEscape(at: number, escape: string): string {
  report(at, invalidEscape(state.byte(at), escape));
  return '';
}

function fieldName(node: Node): { name: string; quoted: boolean } {
  return node.ctorName === 'string'
    ? { name: plainString(node), quoted: true }
    : { name: node.sourceString, quoted: false };
}

/** The text between the quotes of `s'…'`, `r'…'` or `t'…'`. */
const literalBody = (node: Node): string => node.sourceString.slice(2, -1);

function literal(node: Node, value: LiteralValue): Expr {
  return { type: 'Literal', span: spanOf(node), value };
}

const semantics = grammar.createSemantics().addOperation<unknown>('ast', {
  Program(_newlines, statements, _end): Expr[] {
    return optional<Expr[]>(statements) ?? [];
  },
  Statements(first, _separators, rest, _trailing): Expr[] {
    return [ast<Expr>(first), ...rest.children.map((statement) => ast<Expr>(statement))];
  },

  Assign(target, _comma, errorTarget, op, _newlines, value): Expr {
    const errorTargetValue = optional<AssignTarget>(errorTarget);
    return {
      type: 'Assign',
      span: spanOf(this),
      op: op.sourceString as '=' | '|=',
      opSpan: spanOf(op),
      target: ast<AssignTarget>(target),
      ...(errorTargetValue ? { errorTarget: errorTargetValue } : {}),
      value: ast<Expr>(value),
    };
  },
  AssignTarget(target): AssignTarget {
    if (target.ctorName === 'noop') return { kind: 'noop', span: spanOf(target) };
    if (target.ctorName === 'variable') {
      const variable = ast<Variable>(target);
      return {
        kind: 'query',
        query: {
          type: 'Query',
          span: variable.span,
          target: { kind: 'variable', name: variable.name, span: variable.span },
          path: [],
        },
      };
    }
    return { kind: 'query', query: ast<Query>(target) };
  },

  If(_if, predicate, _newlines, then, _elseNewlines, _else, _blockNewlines, otherwise): If {
    const elseValue = optional<Block | If>(otherwise);
    return {
      type: 'If',
      span: spanOf(this),
      predicate: ast<Expr>(predicate),
      // biome-ignore lint/suspicious/noThenProperty: the AST's field names, not a promise
      then: ast<Block>(then),
      ...(elseValue ? { else: elseValue } : {}),
    };
  },
  // One parenthesized expression is a group, as without the lookahead.
  Predicate_sequence(_open, _newlines, statements, _close, _blockNewlines, _brace): Expr {
    const exprs = ast<Expr[]>(statements);
    const span = spanOf(this);
    return exprs.length === 1 ? { type: 'Group', span, expr: exprs[0]! } : { type: 'Sequence', span, exprs };
  },
  Abort(_abort, message): Expr {
    const messageValue = optional<Expr>(message);
    return { type: 'Abort', span: spanOf(this), ...(messageValue ? { message: messageValue } : {}) };
  },
  Return(_return, value): Expr {
    return { type: 'Return', span: spanOf(this), value: ast<Expr>(value) };
  },

  Expr(first, ops, _newlines, operands): Expr {
    return operatorChain(first, ops, operands);
  },
  Unary(bangs, operand): Expr {
    return bangs.children.reduceRight<Expr>(
      (inner, bang) => ({
        type: 'Unary',
        span: [spanOf(bang)[0], inner.span[1]],
        op: '!',
        opSpan: spanOf(bang),
        operand: inner,
      }),
      ast<Expr>(operand),
    );
  },

  Primary_queryable(container, segments): Expr {
    const expr = ast<Expr>(container);
    const path = optional<PathSegment[]>(segments);
    return path ? query.call(this, { kind: 'expr', expr }, path) : expr;
  },

  ClosureCall(call, closure): Call {
    return { ...ast<Call>(call), span: spanOf(this), closure: ast<Closure>(closure) };
  },
  Call(head, _newlines, args, _close): Call {
    const [name, bang] = head.children as [Node, Node, Node];
    return {
      type: 'Call',
      span: spanOf(this),
      name: name.sourceString,
      nameSpan: spanOf(name),
      abort: bang.numChildren > 0,
      args: optional<Argument[]>(args) ?? [],
    };
  },
  Arguments(list, _comma, _newlines): Argument[] {
    return listItems(list).map((arg) => ast<Argument>(arg));
  },
  Argument_named(name, _colon, value): Argument {
    return { name: name.sourceString, nameSpan: spanOf(name), value: ast<Expr>(value), span: spanOf(this) };
  },
  Argument_positional(value): Argument {
    const expr = ast<Expr>(value);
    return { value: expr, span: expr.span };
  },
  Closure(_arrow, _open, params, _comma, _close, _newlines, body): Closure {
    return {
      span: spanOf(this),
      params: listItems(params).map((param) => ({
        name: param.sourceString === '_' ? '_' : checkIdentifier(param),
        span: spanOf(param),
      })),
      body: ast<Block>(body),
    };
  },

  Array(_open, _newlines, elements, _close): Expr {
    return { type: 'Array', span: spanOf(this), items: optional<Expr[]>(elements) ?? [] };
  },
  Elements(list, _comma, _newlines): Expr[] {
    return listItems(list).map((item) => ast<Expr>(item));
  },
  Object(_open, _newlines, entries, _close): Expr {
    return { type: 'Object', span: spanOf(this), entries: optional<ObjectEntry[]>(entries) ?? [] };
  },
  Entries(list, _comma, _newlines): ObjectEntry[] {
    return listItems(list).map((entry) => ast<ObjectEntry>(entry));
  },
  Entry(key, _colon, value): ObjectEntry {
    return { key: plainString(key), keySpan: spanOf(key), value: ast<Expr>(value) };
  },
  Block(_open, _newlines, statements, _close): Block {
    return { type: 'Block', span: spanOf(this), exprs: ast<Expr[]>(statements) };
  },
  Group(_open, body, _close): Expr {
    return { type: 'Group', span: spanOf(this), expr: ast<Expr>(body) };
  },

  variable(name): Variable {
    return { type: 'Variable', span: spanOf(this), name: checkIdentifier(name) };
  },

  eventQuery(_dot, path): Query {
    return query.call(this, { kind: 'event' }, optional<PathSegment[]>(path) ?? []);
  },
  metadataQuery(_percent, path): Query {
    return query.call(this, { kind: 'metadata' }, optional<PathSegment[]>(path) ?? []);
  },
  rootPath(first, rest): PathSegment[] {
    return [ast<PathSegment>(first), ...rest.children.map((segment) => ast<PathSegment>(segment))];
  },
  variableQuery(name, segments): Query {
    const target: QueryTarget = { kind: 'variable', name: checkIdentifier(name), span: spanOf(name) };
    return query.call(
      this,
      target,
      segments.children.map((segment) => ast<PathSegment>(segment)),
    );
  },
  pathSegments(segments): PathSegment[] {
    return segments.children.map((segment) => ast<PathSegment>(segment));
  },
  pathSegment_field(_dot, field): PathSegment {
    return ast<PathSegment>(field);
  },
  pathSegment_index(_open, _before, index, _after, _close): PathSegment {
    return { kind: 'index', index: Number(index.sourceString.replace(/_/g, '')), span: spanOf(this) };
  },
  fieldSegment(field): PathSegment {
    if (field.ctorName === 'coalescedFields') return ast<PathSegment>(field);
    return { kind: 'field', ...fieldName(field), span: spanOf(field) };
  },
  coalescedFields(_open, _s1, first, _s2, _pipes, _s3, rest, _s4, _close): PathSegment {
    const fields = [first, ...rest.children].map((field) => fieldName(field.children[0]!).name);
    return { kind: 'coalesce', fields, span: spanOf(this) };
  },

  string(_open, _backslashes, _chars, _close): Expr {
    const decoded = decodeString(this.sourceString.slice(1, -1), this.source.startIdx + 1, true);
    if (!decoded.ok) return literal(this, { kind: 'string', value: badEscape(decoded.at, decoded.invalidEscape) });
    const { parts } = decoded;
    if (parts.length === 1 && typeof parts[0] === 'string') return literal(this, { kind: 'string', value: parts[0] });
    return {
      type: 'Template',
      span: spanOf(this),
      parts: parts.map((part) =>
        typeof part === 'string'
          ? part
          : {
              type: 'Variable',
              span: [state.byte(part.start), state.byte(part.end)],
              name: part.name,
            },
      ),
    };
  },
  // A raw string keeps every backslash, `\'` included, as VRL does.
  rawString(_open, _backslashes, _chars, _close): Expr {
    return literal(this, { kind: 'string', value: literalBody(this) });
  },
  // VRL has no flag suffix: inline flags like `(?i)` stay in the pattern, which the checker validates.
  regex(_open, _backslashes, _chars, _close): Expr {
    return literal(this, { kind: 'regex', pattern: regexPattern(literalBody(this)), flags: '' });
  },
  timestamp(_open, _backslashes, _chars, _close): Expr {
    return literal(this, { kind: 'timestamp', text: literalBody(this) });
  },
  float(_sign, _first, _integral, _dot, _fraction): Expr {
    return literal(this, { kind: 'float', value: floatValue(this.sourceString) });
  },
  integer(_sign, _first, _rest): Expr {
    const value = integerValue(this.sourceString);
    if (value === undefined) report(this.source.startIdx, invalidNumericLiteral(spanOf(this), this.sourceString));
    return literal(this, { kind: 'integer', value: value ?? 0n });
  },
  boolean(_word): Expr {
    return literal(this, { kind: 'boolean', value: this.sourceString === 'true' });
  },
  null(_word): Expr {
    return literal(this, { kind: 'null' });
  },
});

/**
 * The statements of a successful match of the program's text from UTF-16 index `offset` on; `issues` holds
 * the problems found on the way. `byte` maps the program's UTF-16 indices to byte offsets.
 */
export function buildStatements(
  match: MatchResult,
  byte: (index: number) => number,
  offset: number,
): { statements: Expr[]; issues: Issue[] } {
  state = { byte: (index) => byte(offset + index), offset, issues: [] };
  const statements = semantics(match).ast() as Expr[];
  return { statements, issues: state.issues };
}
