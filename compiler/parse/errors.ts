// The diagnostics the parser produces, shaped as VRL's parser reports them.

import type { Span } from '../ast.js';
import { diagnostic, primary, secondary, type Diagnostic } from '../diagnostics/diagnostic.js';

// Lexical errors: since VRL 0.31 the lexer's own (E206-E209), at the offending character, where before
// they came wrapped in a generic E202 over the whole program.

/** An integer literal outside i64, with Rust's reason. */
export function invalidNumericLiteral(span: Span, text: string): Diagnostic {
  const reason = text.startsWith('-')
    ? 'number too small to fit in target type'
    : 'number too large to fit in target type';
  return diagnostic(206, 'invalid numeric literal', [primary(span, `invalid numeric literal: ${reason}`)]);
}

/** A `"` literal without its closing quote; `start` is the byte offset of the opening quote. */
export const invalidStringLiteral = (start: number): Diagnostic =>
  diagnostic(207, 'invalid string literal', [primary([start, start + 1], 'invalid string literal')]);

/** An `s'`, `r'` or `t'` literal without its closing quote. */
export const invalidLiteral = (start: number): Diagnostic =>
  diagnostic(208, 'invalid literal', [primary([start, start + 1], 'invalid literal')]);

/** `at`: byte offset of the character after the backslash. */
export const invalidEscape = (at: number, escape: string): Diagnostic =>
  diagnostic(209, `invalid escape character: \\${escape}`, [
    primary([at, at + 1], `invalid escape character: ${escape}`),
  ]);

/** Errors that stop VRL's lexer at once, wherever they are. */
export const LEXICAL_CODES: ReadonlySet<number> = new Set([206, 207, 208, 209]);

export function reservedKeyword(span: Span): Diagnostic {
  return diagnostic(205, 'reserved keyword', [
    primary(span, 'this identifier name is reserved for future use in the language'),
    secondary(span, 'use a different name instead'),
  ]);
}

/** E203 (a token the grammar does not accept here) or, with `token` undefined, E204 (end of program). */
export function unexpected(span: Span, token: string | undefined, expected: string[]): Diagnostic {
  const what = token === undefined ? 'unexpected end of program' : `unexpected ${token}`;
  const labels = [primary(span, what)];
  if (expected.length) labels.push(secondary(span, `expected one of: ${expected.join(', ')}`));
  return diagnostic(token === undefined ? 204 : 203, 'syntax error', labels);
}
