// Compile-time rejections of literal arguments, worded as VRL words them.

import type { ArgumentError } from '../define.js';

/** E403: the literal `received` (as VRL prints it) is not acceptable for `param`. */
export const invalidArgument = (param: string, received: string, error: string): ArgumentError => ({
  code: 403,
  message: 'invalid argument',
  labels: [`invalid argument "${param}"`, `received: ${received}`, `error: ${error}`],
});

/** E401: the literal `received` is none of `variants`. */
export const invalidEnumVariant = (param: string, received: string, variants: readonly string[]): ArgumentError => ({
  code: 401,
  message: 'invalid enum variant"', // sic: VRL prints a stray quote here
  labels: [
    `invalid enum variant for argument "${param}"`,
    `received: ${received}`,
    `expected one of: ${variants.map((v) => `"${v}"`).join(', ')}`,
  ],
});
