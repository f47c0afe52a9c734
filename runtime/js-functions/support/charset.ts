// Character sets by WHATWG Encoding label, as encoding_rs (VRL's library) resolves them. Node's TextDecoder
// knows the labels (and gives each its canonical name) and decodes the Unicode encodings; iconv-lite does
// the legacy ones (Node 20's TextDecoder decodes `windows-1252` as ISO-8859-1).

import type Iconv from 'iconv-lite';
import { library } from './library.js';

const iconv = library<typeof Iconv>('iconv-lite');

/** WHATWG names iconv-lite knows by another name. */
const ICONV_NAMES: Readonly<Record<string, string>> = { 'x-mac-cyrillic': 'maccyrillic', 'iso-8859-8-i': 'iso-8859-8' };
const UNICODE = new Set(['utf-8', 'utf-16le', 'utf-16be']);

/** The canonical WHATWG name of a label (case and surrounding whitespace ignored), or throws VRL's error. */
export function charsetName(label: string): string {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    throw new Error(`Unknown charset: ${label}`);
  }
}

/** iconv-lite's name for a legacy charset (undefined for the Unicode ones and those it lacks). */
export function iconvName(name: string): string | undefined {
  if (UNICODE.has(name)) return undefined;
  const iconvName = ICONV_NAMES[name] ?? name;
  return iconv().encodingExists(iconvName) ? iconvName : undefined;
}

/** `bytes` in the charset of canonical `name` as text, malformed sequences as U+FFFD. */
export function decodeCharset(bytes: Uint8Array, name: string): string {
  const legacy = iconvName(name);
  return legacy === undefined ? new TextDecoder(name).decode(bytes) : iconv().decode(Buffer.from(bytes), legacy);
}
