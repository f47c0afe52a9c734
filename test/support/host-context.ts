// A host function's call context for tests that call host functions directly.
import { translateRegex } from '../../abi/regex.js';
import type { HostCallContext } from '../../runtime/host-imports.js';

export function hostContext(timezone = 'UTC'): HostCallContext {
  return {
    timezone,
    regex(pattern) {
      const { source, flags } = translateRegex(pattern);
      return new RegExp(source, flags);
    },
  };
}
