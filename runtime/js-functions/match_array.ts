import type { JsFunction } from '../imports.js';
import { arrayArg, booleanArg, regexArg, stringArg } from './args.js';

/**
 * match_array(value, pattern, all = false): whether any (with `all`, every) item matches the regex; items
 * that are not strings never match.
 */
export const match_array: JsFunction = ([value, pattern, all], context) => {
  const re = context.regex(regexArg(pattern!).pattern);
  const items = arrayArg(value!);
  const every = booleanArg(all!, false);
  const matches = (item: (typeof items)[number]) =>
    (typeof item === 'string' || item instanceof Uint8Array) && re.test(stringArg(item));
  return every ? items.every(matches) : items.some(matches);
};
