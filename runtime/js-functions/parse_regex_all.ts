import type { JsFunction } from '../imports.js';
import type { Regex } from '../../abi/values.js';
import { rustMatches } from '../../abi/rust-regex.js';
import { booleanArg, stringArg } from './args.js';
import { captureObject } from './regex-captures.js';

/** `parse_regex_all(value, pattern, numeric_groups = false)`: parse_regex's object for every match, in order. */
export const parse_regex_all: JsFunction = ([value, pattern, numericGroups], context) => {
  const text = stringArg(value!);
  const numeric = booleanArg(numericGroups!, false);
  const re = context.regex((pattern as Regex).pattern);
  return [...rustMatches(re, text)].map((m) => captureObject(re, m, numeric));
};
