// The rules of a call that need no type state: matching arguments to parameters, and the arguments a
// parameter rejects whatever their kind (paths, enums, literals).

import type * as ast from '../ast.js';
import type { Span } from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ArgumentError, CallInfo, FunctionDef, Parameter } from '../functions/define.js';
import * as msg from './messages.js';
import { invalidEnumVariant } from '../functions/support/arguments.js';

/**
 * Matches a call's arguments to its function's parameters: keywords by name, the others in order. The
 * index of each parameter's argument (in source order), or the error when they don't fit.
 */
export function bindArguments(e: ast.Call, params: readonly Parameter[]): Map<Parameter, number> | Diagnostic {
  const tooMany = () => {
    const span: Span = [e.args[0]!.span[0], e.args[e.args.length - 1]!.span[1]];
    return msg.tooManyArguments(span, params.length);
  };
  if (e.args.length > params.length) return tooMany();
  const bound = new Map<Parameter, number>();
  let position = 0;
  for (const [i, arg] of e.args.entries()) {
    let param: Parameter | undefined;
    if (arg.name !== undefined) {
      param = params.find((p) => p.name === arg.name);
      if (!param)
        return msg.unknownKeyword(
          arg.nameSpan ?? arg.span,
          e.nameSpan,
          params.map((p) => p.name),
        );
    } else {
      while (position < params.length && bound.has(params[position]!)) position++;
      param = params[position++];
    }
    if (!param || bound.has(param)) return tooMany();
    bound.set(param, i);
  }
  return bound;
}

/** VRL's names of expression kinds, as its messages print them. */
const EXPRESSION_NAMES: Record<ast.Expr['type'], string> = {
  Literal: 'literal',
  Template: 'literal',
  Array: 'container',
  Object: 'container',
  Block: 'container',
  Group: 'container',
  Sequence: 'container',
  Query: 'query',
  Variable: 'variable call',
  Call: 'function call',
  Unary: 'unary operation',
  Binary: 'operation',
  Assign: 'assignment',
  If: 'if-statement',
  Abort: 'abort operation',
  Return: 'return',
};

/** Parameters that take a path, not a value (VRL's E400, wrapped in E610). */
export function expectPaths(
  def: FunctionDef,
  args: (param: Parameter) => ast.Expr | undefined,
): ArgumentError | undefined {
  for (const param of def.parameters) {
    const value = args(param);
    if (!param.path || !value || value.type === 'Query') continue;
    return {
      code: 400,
      message: 'unexpected expression type',
      labels: [
        `unexpected expression for argument "${param.name}"`,
        `received: ${EXPRESSION_NAMES[value.type]}`,
        'expected: query',
      ],
    };
  }
  return undefined;
}

/** Enum values and literal-only parameters (VRL's E401/E402, wrapped in E610). */
export function validateArguments(def: FunctionDef, call: CallInfo): ArgumentError | undefined {
  for (const param of def.parameters) {
    const arg = call.args[param.name];
    if (!arg) continue;
    if ((param.literal ?? param.enum !== undefined) && !arg.constant) {
      return {
        code: 402,
        message: 'expected static expression',
        labels: [`expected static expression for argument "${param.name}"`, `received: ${arg.text}`],
      };
    }
    if (param.enum && param.literal !== false && arg.constant) {
      // An array parameter with an enum takes a list of its values (snakecase's excluded_boundaries).
      const values = arg.constant.kind === 'array' ? arg.constant.items : [arg.constant];
      if (!values.every((v) => v.kind === 'string' && param.enum!.includes(v.value)))
        return invalidEnumVariant(param.name, arg.text, param.enum);
    }
  }
  return undefined;
}
