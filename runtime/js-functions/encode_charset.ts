// encode_charset(value, to_charset): UTF-8 text to a WHATWG-labelled charset by iconv-lite, with encoding_rs's
// rules: characters the charset lacks become HTML numeric character references (`&#128512;`), and the
// UTF-16 and replacement encodings write UTF-8 (their `output_encoding`). ISO-2022-JP, which iconv-lite
// lacks, has its own encoder.

import type Iconv from 'iconv-lite';
import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { charsetName, iconvName } from './support/charset.js';
import { encodeIso2022Jp } from './support/iso-2022-jp.js';
import { library } from './support/library.js';

const iconv = library<typeof Iconv>('iconv-lite');

const UTF8_OUTPUT = new Set(['utf-8', 'utf-16le', 'utf-16be', 'replacement']);
const QUESTION_MARK = 0x3f;

function countQuestionMarks(bytes: Uint8Array | string): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++)
    if ((typeof bytes === 'string' ? bytes.charCodeAt(i) : bytes[i]) === QUESTION_MARK) count++;
  return count;
}

export const encode_charset: JsFunction = ([value, toCharset]) => {
  const label = stringArg(toCharset!);
  const name = charsetName(label);
  const text = stringArg(value!);
  if (UTF8_OUTPUT.has(name)) return text;
  if (name === 'iso-2022-jp') return encodeIso2022Jp(text);
  const encoding = iconvName(name);
  if (encoding === undefined) throw new Error(`Unknown charset: ${label}`);
  const whole = iconv().encode(text, encoding);
  // iconv-lite writes `?` for what it cannot encode: only then go character by character.
  if (countQuestionMarks(whole) === countQuestionMarks(text)) return whole;
  const parts: Buffer[] = [];
  for (const character of text) {
    const encoded = iconv().encode(character, encoding);
    const unmappable = character !== '?' && countQuestionMarks(encoded) > 0;
    parts.push(unmappable ? Buffer.from(`&#${character.codePointAt(0)};`) : encoded);
  }
  return Buffer.concat(parts);
};
