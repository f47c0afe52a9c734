// A JS function's call context for tests that call JS functions directly.
import { translateRegex } from '../../abi/regex.js';
import type { JsCallContext } from '../../runtime/imports.js';
import { workerIo, type BlockingIo } from '../../runtime/blocking-io.js';

export function jsContext(timezone = 'UTC', io: BlockingIo = workerIo()): JsCallContext {
  return {
    timezone,
    io,
    regex(pattern) {
      const { source, flags } = translateRegex(pattern);
      return new RegExp(source, flags);
    },
  };
}
