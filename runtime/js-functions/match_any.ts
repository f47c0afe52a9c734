import type { JsFunction } from '../imports.js';
import { arrayArg, regexArg, stringArg } from './args.js';

/** match_any(value, patterns): whether any of the regexes matches the lossy UTF-8 text (VRL's `RegexSet`). */
export const match_any: JsFunction = ([value, patterns], context) => {
  const text = stringArg(value!);
  const regexes = arrayArg(patterns!).map((p) => context.regex(regexArg(p).pattern));
  return regexes.some((re) => re.test(text));
};
