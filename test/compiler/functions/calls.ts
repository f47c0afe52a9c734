// Builds the call information the checker passes to function definitions, for testing their type rules.
import { lookupFunction } from '../../../compiler/functions/index.js';
import type { ArgInfo, CallInfo, Constant, FunctionDef } from '../../../compiler/functions/define.js';
import { BOOLEAN, BYTES, FLOAT, INTEGER, REGEX, type Kind } from '../../../compiler/types/kind.js';

export const def = (name: string): FunctionDef => {
  const found = lookupFunction(name);
  if (!found) throw new Error(`no function ${name}`);
  return found;
};
export const arg = (kind: Kind, constant?: Constant): ArgInfo => ({ kind, constant, span: [0, 0], text: '' });
export const str = (value: string): ArgInfo => arg(BYTES, { kind: 'string', value });
export const int = (value: bigint): ArgInfo => arg(INTEGER, { kind: 'integer', value });
export const float = (value: number): ArgInfo => arg(FLOAT, { kind: 'float', value });
export const flag = (value: boolean): ArgInfo => arg(BOOLEAN, { kind: 'boolean', value });
export const regex = (pattern: string): ArgInfo => arg(REGEX, { kind: 'regex', pattern, flags: '' });
export const call = (args: Record<string, ArgInfo>, closureReturns?: Kind): CallInfo => ({ args, closureReturns });

/** Whether the named function can fail for this call. */
export const fallible = (name: string, c: CallInfo): boolean => {
  const f = def(name).fallible;
  return typeof f === 'function' ? f(c) : f;
};
/** The named function's result kind for this call. */
export const returns = (name: string, c: CallInfo = call({})): Kind => {
  const r = def(name).returns;
  return typeof r === 'function' ? r(c) : r;
};
