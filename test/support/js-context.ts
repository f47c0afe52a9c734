// A JS function's call context for tests that call JS functions directly.
import { translateRegex } from '../../abi/regex.js';
import type { JsCallContext } from '../../runtime/imports.js';

export function jsContext(timezone = 'UTC'): JsCallContext {
  return {
    timezone,
    regex(pattern) {
      const { source, flags } = translateRegex(pattern);
      return new RegExp(source, flags);
    },
  };
}
