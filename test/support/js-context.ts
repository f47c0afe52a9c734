// A JS function's call context for tests that call JS functions directly.
import { RustRegex } from '../../abi/regex.js';
import type { JsCallContext } from '../../runtime/imports.js';
import { workerIo, type BlockingIo } from '../../runtime/blocking-io.js';
import { DEFAULT_MAX_DECOMPRESSED_SIZE } from '../../runtime/services.js';

export function jsContext(
  timezone = 'UTC',
  maxDecompressedSize = DEFAULT_MAX_DECOMPRESSED_SIZE,
  io: BlockingIo = workerIo(),
): JsCallContext {
  return {
    timezone,
    io,
    maxDecompressedSize,
    regex: (pattern) => new RustRegex(pattern),
  };
}
