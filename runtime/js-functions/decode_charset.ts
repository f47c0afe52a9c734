// decode_charset(value, from_charset): bytes in a WHATWG-labelled charset to UTF-8 text (malformed sequences
// become U+FFFD). As encoding_rs's `decode`, a UTF-8 or UTF-16 byte order mark overrides the label.

import type { JsFunction } from '../imports.js';
import { bytesArg, stringArg } from './support/args.js';
import { charsetName, decodeCharset } from './support/charset.js';

function sniffBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

export const decode_charset: JsFunction = ([value, fromCharset]) => {
  const bytes = bytesArg(value!);
  const name = charsetName(stringArg(fromCharset!));
  return decodeCharset(bytes, sniffBom(bytes) ?? name);
};
