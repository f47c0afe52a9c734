import type { JsFunction } from '../imports.js';
import type { Regex } from '../../abi/values.js';
import { booleanArg, stringArg } from './args.js';
import { captureObject } from './regex-captures.js';

/** Global copies of the instance's shared regexes (which must stay non-global), made once each. */
const globalCopies = new WeakMap<RegExp, RegExp>();

/** `parse_regex_all(value, pattern, numeric_groups = false)`: parse_regex's object for every match, in order. */
export const parse_regex_all: JsFunction = ([value, pattern, numericGroups], context) => {
  const text = stringArg(value!);
  const numeric = booleanArg(numericGroups!, false);
  const shared = context.regex((pattern as Regex).pattern);
  let global = globalCopies.get(shared);
  if (!global) {
    global = new RegExp(shared.source, `${shared.flags}g`);
    globalCopies.set(shared, global);
  }
  return [...text.matchAll(global)].map((m) => captureObject(m, numeric));
};
