// The shape of a remap function definition. One file per function in this directory exports one
// `FunctionDef` built with `defineFunction`; `index.ts` collects them into the registry.

import type { PathSegment, Span } from '../ast.js';
import type { Kind } from '../types/kind.js';
import type { Constant } from '../types/constant.js';

export type { Constant } from '../types/constant.js';

/** What the type checker knows of one argument of a call. */
export interface ArgInfo {
  kind: Kind;
  /** Present when the argument's value is known at compile time. */
  constant?: Constant;
  span: Span;
  /** Source text of the argument expression (used in messages). */
  text: string;
  /** For a path into the event, metadata or a variable: the kind of that root and the path. */
  query?: { root: Kind; path: readonly PathSegment[] };
}

/** Arguments of a call by parameter name; absent when not given. */
export interface CallInfo {
  args: Readonly<Record<string, ArgInfo | undefined>>;
  /** Kind the call's closure returns, for functions that take one. */
  closureReturns?: Kind;
  /** The enrichment tables known at compile time, if any (`CompileOptions.enrichmentTables`). */
  enrichmentTables?: readonly string[];
}

export interface Parameter {
  name: string;
  /** Accepted kinds as `K` bits (`ANY_BITS` for any value). */
  kinds: number;
  required: boolean;
  /** Default as upstream documents it (display text), when optional. */
  default?: string;
  /** Accepted values of a string parameter; the argument must then be a literal among them (E401), unless `literal` is false. */
  enum?: readonly string[];
  /**
   * The argument must be known at compile time (E402 otherwise). Explicitly `false` on an enum parameter:
   * upstream checks the value at run time (crc, hmac, base64 charsets), so any string expression is accepted.
   */
  literal?: boolean;
  /** The argument must be a path expression (`.a`, `x.b`, `%m`), not a value (E400 otherwise). */
  path?: boolean;
}

/** A compile-time rejection of an argument, reported on the call's span (E400-E403 and friends). */
export interface ArgumentError {
  code: number;
  message: string;
  /** First is the primary label, the rest are context labels. */
  labels: string[];
}

interface ClosureSpec {
  /** Kinds of the closure's parameters, in order; their count is the closure's arity. */
  variables(call: CallInfo): Kind[];
  /** Kind the closure body must resolve to (E122 otherwise). */
  returns: Kind;
  /** A complete call with its closure, shown when the closure is missing (E111). */
  example?: string;
}

export interface Example {
  title: string;
  source: string;
  /** The event the program runs on (`{}` when absent). */
  input?: unknown;
  /** Expected result as VRL literal text, e.g. `{ "a": 1, "b": 2.0 }`, `t'2021-01-01T00:00:00Z'`. */
  returns?: string;
  /** Expected runtime error text. */
  raises?: string;
  /** `type`: only the result's type is deterministic; `compile`: the example only has to compile. */
  mode?: 'type' | 'compile';
}

/**
 * Where the implementation lives: the AssemblyScript stdlib (`fn_<name>`), a JS function (runtime/js-functions/)
 * backed by a library, or the code generator itself (its INTRINSICS table: paths, closures, compile-time answers).
 */
type Backing = { kind: 'stdlib' } | { kind: 'js'; library: string } | { kind: 'intrinsic' };

export interface FunctionDef {
  name: string;
  /** Other names accepted for the same function (upstream names of seed functions, and the reverse). */
  aliases: readonly string[];
  category: string;
  description: string;
  parameters: readonly Parameter[];
  /** Whether the call can fail at run time once its arguments have the accepted kinds. */
  fallible: boolean | ((call: CallInfo) => boolean);
  /** Kind of the result. */
  returns: Kind | ((call: CallInfo) => Kind);
  /** Extra compile-time validation of arguments beyond kinds, enums and literal-ness. */
  validate?: (call: CallInfo) => ArgumentError | undefined;
  closure?: ClosureSpec;
  /** False for functions whose result varies between calls (now, random_*, uuid_v4...). */
  pure: boolean;
  /** Set when upstream deprecates the function: the advice shown with the E801 warning. */
  deprecated?: string;
  backing: Backing;
  examples: readonly Example[];
}

type Defaults = 'aliases' | 'pure' | 'backing' | 'fallible';
export type FunctionSpec = Omit<FunctionDef, Defaults> & Partial<Pick<FunctionDef, Defaults>>;

export function defineFunction(spec: FunctionSpec): FunctionDef {
  return { aliases: [], pure: true, backing: { kind: 'stdlib' }, fallible: false, ...spec };
}
