// Regex matching for JS functions on UTF-8 byte positions: VRL reports and takes byte offsets, JS
// RegExps work on UTF-16 indexes.

import type { JsCallContext } from '../imports.js';
import type { Regex } from '../../abi/values.js';

const globalTwins = new WeakMap<RegExp, RegExp>();

/** The global (`g`) twin of the instance's RegExp for `regex`, for iterating or starting at an index. */
export function globalRegExp(context: JsCallContext, regex: Regex): RegExp {
  const re = context.regex(regex.pattern);
  let twin = globalTwins.get(re);
  if (twin === undefined) {
    twin = new RegExp(re.source, `${re.flags}g`);
    globalTwins.set(re, twin);
  }
  return twin;
}

/** The UTF-16 index of UTF-8 byte `offset` of `text`, moved forward to a character boundary; -1 past the end. */
export function indexOfByte(text: string, offset: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= offset) return i;
    const c = text.codePointAt(i)!;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (c >= 0x10000) i++;
  }
  return bytes >= offset ? text.length : -1;
}
