// The object VRL builds for one regex match (`capture_regex_to_map`): with `numeric_groups`, the groups that
// took part numbered from 0 in order; then the named groups (null when they did not take part).

import type { RegexMatch, RustRegex } from '../../abi/regex.js';
import type { RemapValue } from '../../abi/values.js';

export function captureObject(re: RustRegex, m: RegexMatch, numericGroups: boolean): Record<string, RemapValue> {
  const groups: Record<string, RemapValue> = Object.create(null);
  if (numericGroups) {
    let index = 0;
    for (let i = 0; i <= re.groupCount; i++) if (m.groups[i] !== undefined) groups[index++] = m.groups[i]!;
  }
  for (const [name, number] of re.names) groups[name] = m.groups[number] ?? null;
  return groups;
}
