// The object VRL builds for one regex match (`capture_regex_to_map`): with `numeric_groups`, the groups that
// took part numbered from 0 in order; then the named groups (null when they did not take part).

import type { RemapValue } from '../../abi/values.js';

export function captureObject(m: RegExpExecArray, numericGroups: boolean): Record<string, RemapValue> {
  const groups: Record<string, RemapValue> = Object.create(null);
  if (numericGroups) {
    let index = 0;
    for (const group of m) if (group !== undefined) groups[index++] = group;
  }
  for (const [name, group] of Object.entries(m.groups ?? {})) groups[name] = group ?? null;
  return groups;
}
