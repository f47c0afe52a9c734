// A value known at compile time: what the checker knows of literal arguments, and what compile-time answers
// (`type_def`) produce.

import type { LiteralValue } from '../ast.js';

/** A literal value, or an array/object of constants. */
export type Constant =
  | LiteralValue
  | { kind: 'array'; items: Constant[] }
  | { kind: 'object'; fields: Map<string, Constant> };
