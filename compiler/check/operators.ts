// The type rules of VRL's operators: result kind and fallibility from the operands' kinds.

import type * as ast from '../ast.js';
import type { Constant } from '../types/constant.js';
import {
  BOOLEAN,
  BYTES,
  FLOAT,
  INTEGER,
  K,
  fromBits,
  isExactly,
  isSubset,
  objectOf,
  union,
  type Kind,
} from '../types/kind.js';
import type { TypeDef } from './result.js';

const NUMERIC = K.Integer | K.Float;

const COMPARISONS: ReadonlySet<ast.BinaryOp> = new Set(['==', '!=', '<', '<=', '>', '>=']);
export const isComparison = (op: ast.BinaryOp): boolean => COMPARISONS.has(op);

/** `a | b` on objects: the fields of `b` win. */
export function mergeObjects(to: Kind, from: Kind): Kind {
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

/** Operators typed by their operand kinds alone (`??` and `|` are checked by `coalesce` and `merge`). */
export type ArithmeticOrLogic = Exclude<ast.BinaryOp, '??' | '|'>;

/** Result kind and fallibility of a binary operator, as VRL's type rules give them. */
export function operatorType(op: ArithmeticOrLogic, l: Kind, r: Kind, rightConstant?: Constant): TypeDef {
  const bothNumeric = isSubset(l, fromBits(NUMERIC)) && isSubset(r, fromBits(NUMERIC)) && l.bits !== 0 && r.bits !== 0;
  switch (op) {
    case '==':
    case '!=':
      return { kind: BOOLEAN, fallible: false };
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const comparable =
        bothNumeric ||
        (isExactly(l, K.Bytes) && isExactly(r, K.Bytes)) ||
        (isExactly(l, K.Timestamp) && isExactly(r, K.Timestamp));
      return { kind: BOOLEAN, fallible: !comparable };
    }
    case '&&':
      return { kind: BOOLEAN, fallible: !isSubset(l, fromBits(K.Boolean | K.Null)) };
    case '||':
      return { kind: union(l, r), fallible: false };
    case '+': {
      if (bothNumeric) return { kind: numeric(l, r), fallible: false };
      const bytesOrNull = (k: Kind) => isSubset(k, fromBits(K.Bytes | K.Null));
      if (bytesOrNull(l) && bytesOrNull(r) && (isExactly(l, K.Bytes) || isExactly(r, K.Bytes)))
        return { kind: BYTES, fallible: false };
      return { kind: union(BYTES, INTEGER, FLOAT), fallible: true };
    }
    case '-':
      return bothNumeric ? { kind: numeric(l, r), fallible: false } : { kind: union(INTEGER, FLOAT), fallible: true };
    case '*': {
      if (bothNumeric) return { kind: numeric(l, r), fallible: false };
      const repeat =
        (isExactly(l, K.Bytes) && isExactly(r, K.Integer)) || (isExactly(l, K.Integer) && isExactly(r, K.Bytes));
      return repeat ? { kind: BYTES, fallible: false } : { kind: union(BYTES, INTEGER, FLOAT), fallible: true };
    }
    case '/':
      return { kind: FLOAT, fallible: !(bothNumeric && isNonZero(rightConstant)) };
    case '%':
      return {
        kind: bothNumeric ? numeric(l, r) : union(INTEGER, FLOAT),
        fallible: !(bothNumeric && isNonZero(rightConstant)),
      };
  }
}
