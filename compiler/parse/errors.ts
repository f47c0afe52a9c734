// The diagnostics the parser produces, shaped as VRL's parser reports them.

import type { Span } from '../ast.js';
import { diagnostic, primary, secondary, type Diagnostic } from '../diagnostics/diagnostic.js';

/**
 * A lexical error (bad escape, unterminated literal, number out of range). VRL's parser receives it
 * as a "user" error (E202) and labels the whole program with it.
 */
export function lexicalError(message: string, programByteLength: number): Diagnostic {
  return diagnostic(202, 'syntax error', [primary([0, programByteLength], `unexpected error: ${message}`)]);
}

export function reservedKeyword(span: Span): Diagnostic {
  return diagnostic(205, 'reserved keyword', [
    primary(span, 'this identifier name is reserved for future use in the language'),
    secondary(span, 'use a different name instead'),
  ]);
}

export function chainedComparison(operatorSpan: Span): Diagnostic {
  return diagnostic(650, "comparison operators can't be chained together", [primary(operatorSpan)], [
    { kind: 'see-docs', about: 'comparisons', url: 'https://vrl.dev/expressions/#comparison' },
  ]);
}

/** E203 (a token the grammar does not accept here) or, with `token` undefined, E204 (end of program). */
export function unexpected(span: Span, token: string | undefined, expected: string[]): Diagnostic {
  const what = token === undefined ? 'unexpected end of program' : `unexpected ${token}`;
  const labels = [primary(span, what)];
  if (expected.length) labels.push(secondary(span, `expected one of: ${expected.join(', ')}`));
  return diagnostic(token === undefined ? 204 : 203, 'syntax error', labels);
}
