// Lexical facts of remap shared by the AST builder and the syntax-error explainer: string escapes
// and template segments, numeric ranges and reserved words, as VRL's lexer has them.

/** Escapes VRL accepts in "..." strings, and what they stand for. */
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '{': '{',
  '}': '}',
};

/** A `{{ name }}` segment of a string: `start`/`end` are UTF-16 indices of `{{` and after `}}`. */
interface TemplateSegment {
  name: string;
  start: number;
  end: number;
}

type StringPart = string | TemplateSegment;

export type DecodedString =
  | { ok: true; parts: StringPart[] }
  /** `at`: UTF-16 index of the character after the backslash. */
  | { ok: false; invalidEscape: string; at: number };

/** `\u{1F30E}`: 1 to 6 hex digits naming a Unicode scalar value (VRL 0.33). */
const UNICODE_ESCAPE = /^u\{([0-9A-Fa-f]{1,6})\}/;

/** The character of a `\u{…}` escape at the start of `text` and the escape's length after the backslash. */
function unicodeEscape(text: string): { char: string; length: number } | undefined {
  const m = UNICODE_ESCAPE.exec(text);
  if (!m) return undefined;
  const code = parseInt(m[1]!, 16);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return { char: String.fromCodePoint(code), length: m[0].length };
}

/**
 * Decodes the text between the quotes of a string literal that starts (at its content) at UTF-16
 * index `offset`. With `templates`, unescaped `{{ name }}` becomes a template segment; VRL drops
 * an unterminated `{{ ...` segment. Without, braces are plain text (object keys, quoted paths).
 */
export function decodeString(body: string, offset: number, templates: boolean): DecodedString {
  const parts: StringPart[] = [];
  let text = '';
  let i = 0;
  while (i < body.length) {
    const ch = body[i]!;
    if (ch === '\\') {
      const next = String.fromCodePoint(body.codePointAt(i + 1)!);
      if (next === '\n') {
        // A line continuation: the newline and the next line's indentation disappear.
        i += 2;
        while (i < body.length && /\s/.test(body[i]!)) i++;
        continue;
      }
      if (next === 'u') {
        const unicode = unicodeEscape(body.slice(i + 1, i + 12));
        if (!unicode) return { ok: false, invalidEscape: next, at: offset + i + 1 };
        text += unicode.char;
        i += 1 + unicode.length;
        continue;
      }
      const decoded = ESCAPES[next];
      if (decoded === undefined) return { ok: false, invalidEscape: next, at: offset + i + 1 };
      text += decoded;
      i += 2;
    } else if (templates && ch === '{' && body[i + 1] === '{') {
      if (text) parts.push(text);
      text = '';
      const close = body.indexOf('}}', i + 2);
      if (close < 0) break;
      parts.push({ name: body.slice(i + 2, close).trim(), start: offset + i, end: offset + close + 2 });
      i = close + 2;
    } else {
      text += ch;
      i++;
    }
  }
  if (text || parts.length === 0) parts.push(text);
  return { ok: true, parts };
}

/** `r'…'` text as VRL keeps it: `\'` stands for a quote, other escapes belong to the regex. */
export const regexPattern = (body: string): string => body.replace(/\\'/g, "'");

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** The value of an integer literal (`_` separators allowed), or undefined when outside i64. */
export function integerValue(text: string): bigint | undefined {
  const value = BigInt(text.replace(/_/g, ''));
  return value < I64_MIN || value > I64_MAX ? undefined : value;
}

export const floatValue = (text: string): number => Number(text.replace(/_/g, ''));

/** Identifiers VRL's lexer refuses as variable names (E205), though they may name functions and fields. */
export const RESERVED_IDENTIFIERS: ReadonlySet<string> = new Set([
  'all',
  'any',
  'array',
  'bool',
  'boolean',
  'break',
  'continue',
  'do',
  'duration',
  'each',
  'emit',
  'float',
  'for',
  'forall',
  'foreach',
  'int',
  'integer',
  'iter',
  'loop',
  'object',
  'regex',
  'string',
  'timestamp',
  'traverse',
  'try',
  'undefined',
  'unless',
  'walk',
  'while',
]);
