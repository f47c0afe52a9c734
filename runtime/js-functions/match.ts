import type { JsFunction } from '../imports.js';
import { regexArg, stringArg } from './args.js';

/** match(value, pattern): whether the regex matches anywhere in the lossy UTF-8 text. */
export const match: JsFunction = ([value, pattern], context) =>
  context.regex(regexArg(pattern!).pattern).test(stringArg(value!));
