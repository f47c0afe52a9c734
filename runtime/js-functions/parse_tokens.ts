import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';

/**
 * `parse_tokens(value)`: VRL's tokenizer. Tokens are separated by whitespace: a `[…]` bracket's content,
 * a `"…"` string's content (escapes kept as written), or a run of other characters up to whitespace, `"`
 * or `[`; an unterminated bracket or string takes the rest of the text. A lone `-` is null.
 */
export const parse_tokens: JsFunction = ([value]) => {
  const text = stringArg(value!);
  const tokens: RemapValue[] = [];
  let at = skipSpace(text, 0);
  while (at < text.length) {
    const c = text[at]!;
    let token: string;
    let end: number;
    if (c === '[') {
      const close = text.indexOf(']', at + 1);
      [token, end] = close < 0 ? [text.slice(at), text.length] : [text.slice(at + 1, close), close + 1];
    } else if (c === '"') {
      const close = stringEnd(text, at + 1);
      [token, end] = close < 0 ? [text.slice(at), text.length] : [text.slice(at + 1, close), close + 1];
    } else {
      end = at;
      while (end < text.length && !' \t\r\n"['.includes(text[end]!)) end++;
      token = text.slice(at, end);
    }
    tokens.push(token === '-' ? null : token);
    at = skipSpace(text, end);
  }
  return tokens;
};

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  return at;
}

/** Index of the `"` closing a string whose content starts at `at` (`\` escapes the next character), or -1. */
function stringEnd(text: string, at: number): number {
  for (; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at;
  }
  return -1;
}
