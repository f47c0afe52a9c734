import type { JsFunction } from '../imports.js';
import { booleanArg, regexArg, stringArg } from './args.js';
import { captureObject } from './regex-captures.js';

/**
 * `parse_regex(value, pattern, numeric_groups = false)`: the first match's named groups (null when they did
 * not take part), and with `numeric_groups` the participating groups numbered from 0 in order.
 */
export const parse_regex: JsFunction = ([value, pattern, numericGroups], context) => {
  const text = stringArg(value!);
  const re = context.regex(regexArg(pattern!).pattern);
  const m = re.exec(text);
  if (!m) throw new Error('could not find any pattern matches');
  return captureObject(re, m, booleanArg(numericGroups!, false));
};
