// A value known at compile time: what the checker knows of literal arguments, and what compile-time answers
// (`type_def`) produce.

import type * as ast from '../ast.js';

/** A literal value, or an array/object of constants. */
export type Constant =
  | ast.LiteralValue
  | { kind: 'array'; items: Constant[] }
  | { kind: 'object'; fields: Map<string, Constant> };

/**
 * The value of an expression known at compile time: a literal, or an array/object of them. With `variable`,
 * also a variable known to hold one where it is read (the checker's knowledge at that point: the code
 * generator passes none, since a closure's body reads its variables again on each run).
 */
export function constantOf(e: ast.Expr, variable?: (name: string) => Constant | undefined): Constant | undefined {
  switch (e.type) {
    case 'Literal':
      return e.value;
    case 'Group':
      return constantOf(e.expr, variable);
    case 'Array': {
      const items: Constant[] = [];
      for (const item of e.items) {
        const c = constantOf(item, variable);
        if (!c) return undefined;
        items.push(c);
      }
      return { kind: 'array', items };
    }
    case 'Object': {
      const fields = new Map<string, Constant>();
      for (const entry of e.entries) {
        const c = constantOf(entry.value, variable);
        if (!c) return undefined;
        fields.set(entry.key, c);
      }
      return { kind: 'object', fields };
    }
    case 'Variable':
      return variable?.(e.name);
    case 'Query':
      return e.target.kind === 'variable' && e.path.length === 0 ? variable?.(e.target.name) : undefined;
    default:
      return undefined;
  }
}
