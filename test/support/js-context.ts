// A JS function's call context for tests that call JS functions directly.
import { translateRegex } from '../../abi/regex.js';
import type { JsCallContext } from '../../runtime/imports.js';
import { DEFAULT_MAX_DECOMPRESSED_SIZE } from '../../runtime/services.js';

export function jsContext(timezone = 'UTC', maxDecompressedSize = DEFAULT_MAX_DECOMPRESSED_SIZE): JsCallContext {
  return {
    timezone,
    maxDecompressedSize,
    regex(pattern) {
      const { source, flags } = translateRegex(pattern);
      return new RegExp(source, flags);
    },
  };
}
