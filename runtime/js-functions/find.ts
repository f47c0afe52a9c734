// find(value, pattern, from = 0): the byte position of the first match at or after byte `from` (a negative
// `from` counts as 0), or null. A string pattern is searched byte-wise in the raw bytes; a regex runs on
// the lossy UTF-8 text.

import type { JsFunction } from '../imports.js';
import { Regex } from '../../abi/values.js';
import { bytesArg, integerArg, stringArg } from './args.js';
import { indexOfByte } from './regex-text.js';

export const find: JsFunction = ([value, pattern, from], context) => {
  const given = from === null ? 0n : integerArg(from!);
  const offset = given < 0n ? 0 : given > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(given);
  if (pattern instanceof Regex) {
    const text = stringArg(value!);
    const start = indexOfByte(text, offset);
    if (start < 0) return null;
    const m = context.regex(pattern.pattern).exec(text, start);
    return m === null ? null : BigInt(Buffer.byteLength(text.slice(0, m.start)));
  }
  const haystack = Buffer.from(bytesArg(value!));
  const needle = bytesArg(pattern!);
  if (needle.length > haystack.length || offset > haystack.length - needle.length) return null;
  const at = haystack.indexOf(needle, offset);
  return at < 0 ? null : BigInt(at);
};
