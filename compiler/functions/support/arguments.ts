// Compile-time rejections of literal arguments, worded as VRL words them.

import type { ArgumentError } from '../define.js';

/** E403: the literal `received` (as VRL prints it) is not acceptable for `param`. */
export const invalidArgument = (param: string, received: string, error: string): ArgumentError => ({
  code: 403,
  message: 'invalid argument',
  labels: [`invalid argument "${param}"`, `received: ${received}`, `error: ${error}`],
});
