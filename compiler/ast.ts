// The remap syntax tree: the plain data that `parse` hands to `check`.
// Every node carries a byte span [start, end) into the UTF-8 source, as VRL reports them.

export type Span = readonly [start: number, end: number];

export type Program = { type: 'Program'; span: Span; exprs: Expr[] };

export type Expr =
  | Literal
  | Template
  | ArrayLit
  | ObjectLit
  | Query
  | Variable
  | Call
  | Unary
  | Binary
  | Assign
  | If
  | Block
  | Group
  | Sequence
  | Abort
  | Return;

/** A literal's value. Strings are text as written after escapes; bytes come later, at codegen. */
export type LiteralValue =
  | { kind: 'string'; value: string }
  | { kind: 'integer'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'timestamp'; text: string }
  | { kind: 'regex'; pattern: string; flags: string };

export type Literal = { type: 'Literal'; span: Span; value: LiteralValue };

/** A string with `{{ expr }}` segments. */
export type Template = { type: 'Template'; span: Span; parts: Array<string | Expr> };

export type ArrayLit = { type: 'Array'; span: Span; items: Expr[] };

export type ObjectEntry = { key: string; keySpan: Span; value: Expr };
export type ObjectLit = { type: 'Object'; span: Span; entries: ObjectEntry[] };

export type PathSegment =
  | { kind: 'field'; name: string; quoted: boolean; span: Span }
  | { kind: 'index'; index: number; span: Span }
  /** `.(a | b)`: the first of the fields that exists. */
  | { kind: 'coalesce'; fields: string[]; span: Span };

/** What a query starts from. */
export type QueryTarget =
  | { kind: 'event' }
  | { kind: 'metadata' }
  | { kind: 'variable'; name: string; span: Span }
  /** A container expression followed by a path: `parse_json!(.a).b`, `[1, 2][0]`. */
  | { kind: 'expr'; expr: Expr };

/** A path read: `.`, `.a.b[0]`, `%meta`, `x.a`, `f!().a`. */
export type Query = { type: 'Query'; span: Span; target: QueryTarget; path: PathSegment[] };

export type Variable = { type: 'Variable'; span: Span; name: string };

export type Argument = { name?: string; nameSpan?: Span; value: Expr; span: Span };

export type Closure = { span: Span; params: Array<{ name: string; span: Span }>; body: Block };

export type Call = {
  type: 'Call';
  span: Span;
  name: string;
  nameSpan: Span;
  /** Trailing `!`: abort the program when the call fails. */
  abort: boolean;
  args: Argument[];
  closure?: Closure;
};

export type Unary = { type: 'Unary'; span: Span; op: '!'; opSpan: Span; operand: Expr };

export type BinaryOp =
  | '*'
  | '/'
  | '%'
  | '+'
  | '-'
  | '<'
  | '<='
  | '>'
  | '>='
  | '=='
  | '!='
  | '&&'
  | '||'
  | '??'
  /** Object merge. */
  | '|';

export type Binary = { type: 'Binary'; span: Span; op: BinaryOp; opSpan: Span; left: Expr; right: Expr };

/** What can be assigned to: `_`, an event or metadata path, a variable (with a path). */
export type AssignTarget = { kind: 'noop'; span: Span } | { kind: 'query'; query: Query };

export type Assign = {
  type: 'Assign';
  span: Span;
  op: '=' | '|=';
  opSpan: Span;
  target: AssignTarget;
  /** Two-target form `ok, err = expr`. */
  errorTarget?: AssignTarget;
  value: Expr;
};

export type If = { type: 'If'; span: Span; predicate: Expr; then: Block; else?: Block | If };

export type Block = { type: 'Block'; span: Span; exprs: Expr[] };

type Group = { type: 'Group'; span: Span; expr: Expr };

/** `if (x = f(); x > 1) {…}`: a predicate of several expressions, run in the enclosing scope; its value is the last one's. */
export type Sequence = { type: 'Sequence'; span: Span; exprs: Expr[] };

export type Abort = { type: 'Abort'; span: Span; message?: Expr };

export type Return = { type: 'Return'; span: Span; value: Expr };

/** The expressions directly inside `e`, in source order (assignment targets are queries, not expressions). */
export function childExprs(e: Expr): Expr[] {
  switch (e.type) {
    case 'Literal':
    case 'Variable':
      return [];
    case 'Template':
      return e.parts.filter((part): part is Expr => typeof part !== 'string');
    case 'Array':
      return e.items;
    case 'Object':
      return e.entries.map((entry) => entry.value);
    case 'Query':
      return e.target.kind === 'expr' ? [e.target.expr] : [];
    case 'Call':
      return [...e.args.map((arg) => arg.value), ...(e.closure ? [e.closure.body] : [])];
    case 'Unary':
      return [e.operand];
    case 'Binary':
      return [e.left, e.right];
    case 'Assign':
      return [e.value];
    case 'If':
      return e.else ? [e.predicate, e.then, e.else] : [e.predicate, e.then];
    case 'Block':
    case 'Sequence':
      return e.exprs;
    case 'Group':
      return [e.expr];
    case 'Abort':
      return e.message ? [e.message] : [];
    case 'Return':
      return [e.value];
  }
}
