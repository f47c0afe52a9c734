// decode_mime_q(value): RFC 2047 encoded-words (`=?charset?Q|B?text?=`) decoded in place, the text between
// them kept as is (VRL keeps the whitespace between adjacent words); or, when there is none, the whole value
// as one word's inner part (`charset?B?text`, the charset optional: UTF-8); or else the value unchanged.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { charsetName, decodeCharset } from './support/charset.js';

interface Word {
  charset: string;
  encoding: string;
  text: string;
}

/** `charset?encoding?text` of `input` from `at`, the text ending at `?=` (or the input's end when `toEnd`). */
function parseInner(input: string, at: number, toEnd: boolean): { word: Word; end: number } | undefined {
  const charsetEnd = input.indexOf('?', at);
  if (charsetEnd < 0) return undefined;
  const encodingEnd = input.indexOf('?', charsetEnd + 1);
  if (encodingEnd < 0) return undefined;
  const close = input.indexOf('?=', encodingEnd + 1);
  if (close < 0 && !toEnd) return undefined;
  const end = close < 0 ? input.length : close;
  return {
    word: {
      charset: input.slice(at, charsetEnd),
      encoding: input.slice(charsetEnd + 1, encodingEnd),
      text: input.slice(encodingEnd + 1, end),
    },
    end,
  };
}

/** Q encoding: `_` is a space, `=XX` a byte; anything else is itself (quoted_printable's robust mode). */
function decodeQ(text: string): Uint8Array {
  const bytes = Buffer.from(text.replace(/_/g, ' '), 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x3d ? String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      out.push(bytes[i]!);
    }
  }
  return Uint8Array.from(out);
}

function decodeB(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw new Error('Unable to decode base64 value');
  }
  return Buffer.from(text, 'base64');
}

function decodeWord({ charset, encoding, text }: Word): string {
  let bytes: Uint8Array;
  switch (encoding.toLowerCase()) {
    case 'q':
      bytes = decodeQ(text);
      break;
    case 'b':
      bytes = decodeB(text);
      break;
    default:
      throw new Error(`Invalid encoding: ${JSON.stringify(encoding)}`);
  }
  return decodeCharset(bytes, charset === '' ? 'utf-8' : charsetName(charset));
}

export const decode_mime_q: JsFunction = ([value]) => {
  const input = stringArg(value!);
  let out = '';
  let at = 0;
  let words = 0;
  for (;;) {
    const open = input.indexOf('=?', at);
    if (open < 0) break;
    const parsed = parseInner(input, open + 2, false);
    if (parsed === undefined) break;
    out += input.slice(at, open) + decodeWord(parsed.word);
    at = parsed.end + 2;
    words++;
  }
  if (words > 0) return out + input.slice(at);
  // Text that is not one word either comes back unchanged (VRL's parser falls back to the input as is).
  const whole = parseInner(input, input.startsWith('=?') ? 2 : 0, true);
  if (whole === undefined) return input;
  try {
    return decodeWord(whole.word) + input.slice(Math.min(whole.end + 2, input.length));
  } catch {
    return input;
  }
};
