// Text helpers for JS functions: remap byte strings as JS strings, and strings as Rust prints them.

import type { RemapValue } from '../abi/values.js';

const lossy = new TextDecoder('utf-8');

/** A byte string argument as text, invalid UTF-8 replaced by U+FFFD (Rust's `from_utf8_lossy`). */
export function lossyText(value: RemapValue): string {
  return value instanceof Uint8Array ? lossy.decode(value) : String(value);
}

/** Rust's `{:?}` of a string: quoted, with `"`, `\` and control characters escaped. */
export function rustDebugString(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === '"' || c === '\\') out += '\\' + c;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (c === '\0') out += '\\0';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\u{${code.toString(16)}}`;
    else out += c;
  }
  return out + '"';
}
