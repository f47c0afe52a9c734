import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { booleanArg, regexArg, stringArg } from './args.js';

/**
 * `parse_regex(value, pattern, numeric_groups = false)`: the first match's named groups (null when they did
 * not take part), and with `numeric_groups` the participating groups numbered from 0 in order.
 */
export const parse_regex: JsFunction = ([value, pattern, numericGroups], context) => {
  const text = stringArg(value!);
  const m = context.regex(regexArg(pattern!).pattern).exec(text);
  if (!m) throw new Error('could not find any pattern matches');
  const groups: Record<string, RemapValue> = Object.create(null);
  if (booleanArg(numericGroups!, false)) {
    let index = 0;
    for (const group of m) if (group !== undefined) groups[index++] = group;
  }
  for (const [name, group] of Object.entries(m.groups ?? {})) groups[name] = group ?? null;
  return groups;
};
