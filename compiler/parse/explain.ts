// Explains a failed match the way VRL's parser would: the first lexical error before the failure
// point if there is one, else the unexpected token (named as VRL's lexer names it) with the
// tokens the grammar expected there.

import type { MatchResult, Node } from 'ohm-js';
import type { Span } from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { endWithout } from '../diagnostics/trim.js';
import { grammar } from './grammar.js';
import {
  invalidEscape,
  invalidLiteral,
  invalidNumericLiteral,
  invalidStringLiteral,
  reservedKeyword,
  unexpected,
} from './errors.js';
import { decodeString, integerValue, RESERVED_IDENTIFIERS } from './lexical.js';

/** What ohm-js returns from `getRightmostFailures()`, which its type declarations omit. */
interface Failure {
  getText(): string;
  getType(): string;
}
type FailedMatch = MatchResult & { getRightmostFailurePosition(): number; getRightmostFailures(): Failure[] };

/** A token of the `lexTokens` scan; `kind` is the `lexToken` case. UTF-16 indices. */
interface Token {
  kind: string;
  start: number;
  end: number;
  node: Node;
}

const scanner = grammar.createSemantics().addOperation<Token[]>('tokens', {
  lexTokens(items) {
    return items.children
      .filter((item) => item.ctorName === 'lexToken')
      .map((item) => {
        const node = item.children[0]!;
        return {
          kind: node.ctorName.slice('lexToken_'.length),
          start: node.source.startIdx,
          end: node.source.endIdx,
          node,
        };
      });
  },
});

function scan(source: string): Token[] {
  // `lexTokens` accepts any text: its last case takes any character.
  return scanner(grammar.match(source, 'lexTokens')).tokens() as Token[];
}

/** VRL's names for token kinds, by `lexToken` case. Words and punctuation are looked up by text. */
const TOKEN_KINDS: Readonly<Record<string, string>> = {
  functionCall: 'FunctionCall',
  queryVariable: 'LQuery',
  queryRoot: 'LQuery',
  string: 'StringLiteral',
  unterminatedString: 'StringLiteral',
  rawString: 'RawStringLiteral',
  regex: 'RegexLiteral',
  timestamp: 'TimestampLiteral',
  float: 'FloatLiteral',
  integer: 'IntegerLiteral',
  unterminatedLiteral: 'InvalidToken',
  invalid: 'InvalidToken',
};
const WORD_KINDS: Readonly<Record<string, string>> = {
  if: 'If',
  else: 'Else',
  null: 'Null',
  true: 'True',
  false: 'False',
  abort: 'Abort',
  return: 'Return',
};
/** Punctuation not listed here is an operator. */
const PUNCTUATION_KINDS: Readonly<Record<string, string>> = {
  '->': 'Arrow',
  '|=': 'MergeEquals',
  '=': 'Equals',
  '!': 'Bang',
  '?': 'Question',
  '&': 'Ampersand',
  '\\': 'Escape',
  '(': 'LParen',
  ')': 'RParen',
  '[': 'LBracket',
  ']': 'RBracket',
  '{': 'LBrace',
  '}': 'RBrace',
  ',': 'Comma',
  ':': 'Colon',
  ';': 'SemiColon',
  _: 'Underscore',
  '@': 'PathField',
};

/** VRL's kind name and span (UTF-16) for the token starting at `token`. */
function describe(token: Token): { kind: string; start: number; end: number } {
  const { start, end } = token;
  const text = token.node.sourceString;
  switch (token.kind) {
    case 'identifier':
    case 'label':
      return {
        kind: WORD_KINDS[text] ?? (RESERVED_IDENTIFIERS.has(text) ? 'ReservedIdentifier' : 'Identifier'),
        start,
        end,
      };
    case 'functionCall':
      return { kind: 'FunctionCall', start, end: token.node.children[0]!.source.endIdx };
    case 'punctuation':
      return { kind: PUNCTUATION_KINDS[text] ?? 'Operator', start, end };
    case 'queryVariable':
    case 'queryRoot':
      // VRL's LQuery token marks where a path starts: its span is one character.
      return { kind: 'LQuery', start, end: start + 1 };
    default:
      return { kind: TOKEN_KINDS[token.kind] ?? 'InvalidToken', start, end };
  }
}

/** The lexical error (E206-E209) VRL's lexer raises on `token`, if any. */
function lexicalProblem(token: Token, byte: (index: number) => number): Diagnostic | undefined {
  const text = token.node.sourceString;
  switch (token.kind) {
    case 'string': {
      const decoded = decodeString(text.slice(1, -1), token.start + 1, true);
      return decoded.ok ? undefined : invalidEscape(byte(decoded.at), decoded.invalidEscape);
    }
    case 'unterminatedString':
      return invalidStringLiteral(byte(token.start));
    case 'unterminatedLiteral':
      return invalidLiteral(byte(token.start));
    case 'integer':
      return integerValue(text) === undefined
        ? invalidNumericLiteral([byte(token.start), byte(token.end)], text)
        : undefined;
    default:
      return undefined;
  }
}

/** Grammar rule descriptions (see remap.ohm) as the VRL tokens they stand for. */
const EXPECTED_BY_DESCRIPTION: Readonly<Record<string, readonly string[]>> = {
  newline: ['\\n'],
  identifier: ['identifier'],
  'argument name': ['identifier'],
  'closure parameter': ['identifier', '_'],
  _: ['_'],
  'function call': ['function call'],
  if: ['if'],
  else: ['else'],
  abort: ['abort'],
  return: ['return'],
  'binary operator': ['|', '+', '*', '-', '/', '%', '<', '<=', '>', '>=', '==', '!=', '&&', '||', '??'],
  'assignment operator': ['=', '|='],
  'path literal': ['path literal'],
  'path field': ['path field', 'string literal'],
  'string literal': ['string literal'],
  'raw string literal': ['raw string literal'],
  'regex literal': ['regex literal'],
  'timestamp literal': ['timestamp literal'],
  'integer literal': ['integer literal'],
  'float literal': ['float literal'],
  boolean: ['true', 'false'],
  null: ['null'],
};
/** Terminals of syntactic rules that are VRL tokens (others come from inside lexical rules). */
const EXPECTED_TERMINALS: Readonly<Record<string, string>> = Object.fromEntries(
  [';', ',', ':', '(', ')', '[', ']', '{', '}', '->', '|', '!'].map((token) => [token, token]),
);
/** Path roots are one token for VRL. */
const PATH_ROOTS: Readonly<Record<string, string>> = { '.': 'path literal', '%': 'path literal' };
/** The order in which VRL lists expected tokens. */
const EXPECTED_ORDER: readonly string[] = [
  'identifier',
  'path field',
  'string literal',
  'raw string literal',
  'integer literal',
  'float literal',
  'regex literal',
  'timestamp literal',
  'function call',
  'path literal',
  'if',
  'else',
  'null',
  'true',
  'false',
  'abort',
  'return',
  ';',
  '\\n',
  '|',
  '=',
  '|=',
  ',',
  ':',
  '+',
  '*',
  '-',
  '/',
  '%',
  '<',
  '<=',
  '>',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '??',
  '_',
  '!',
  '[',
  '{',
  '(',
  ']',
  '}',
  ')',
  '->',
];

/** Tokens that can start an expression. The grammar's first-character guards hide most of them from ohm's
 * failure list, so where an expression could start (a path root or a call was expected) all are listed. */
const EXPRESSION_START: readonly string[] = [
  'identifier',
  'string literal',
  'raw string literal',
  'integer literal',
  'float literal',
  'regex literal',
  'timestamp literal',
  'function call',
  'path literal',
  'null',
  'true',
  'false',
  '!',
  '[',
  '{',
  '(',
];

function expectedTokens(failures: Failure[]): string[] {
  const expected = new Set<string>();
  for (const failure of failures) {
    const text = failure.getText();
    if (failure.getType() === 'string') {
      const token = EXPECTED_TERMINALS[text] ?? PATH_ROOTS[text];
      if (token) expected.add(token);
    } else {
      for (const token of EXPECTED_BY_DESCRIPTION[text] ?? []) expected.add(token);
    }
  }
  if (expected.has('path literal') && expected.has('function call'))
    for (const token of EXPRESSION_START) expected.add(token);
  const rank = (token: string) => EXPECTED_ORDER.indexOf(token);
  return [...expected].sort((a, b) => rank(a) - rank(b)).map((token) => `"${token}"`);
}

const PATH_CHAR = /[A-Za-z0-9_@"(]/;

/**
 * Where a path ends before it is complete (`.a.`, `.a[`, `.a[1`), VRL reports "unexpected end of
 * query path" on the path's last token. Returns that token's span (UTF-16), if so.
 */
function endOfQueryPath(source: string, position: number): [number, number] | undefined {
  const before = source.slice(0, position);
  // Blanks at the end are cut first: `[ \t]*$` after `[ \t]*` would be quadratic in their number.
  const openIndex = /[A-Za-z0-9_@"\])}]\[[ \t]*(-?[0-9][0-9_]*)?$/.exec(before.slice(0, endWithout(before, /[ \t]/)));
  if (openIndex) {
    // Inside `[...]` the path goes on to the closing bracket, if the line has one.
    if (/^[^\n]*\]/.test(source.slice(position))) return undefined;
    const index = openIndex[1];
    if (index === undefined) return [openIndex.index + 1, openIndex.index + 2];
    const start = before.lastIndexOf(index);
    return [start, start + index.length];
  }
  if (before.endsWith('.') && !PATH_CHAR.test(source[position] ?? '')) return [position - 1, position];
  return undefined;
}

/** The diagnostic VRL gives for `source`, whose match failed. */
export function explainFailure(source: string, match: MatchResult, byte: (index: number) => number): Diagnostic {
  const failed = match as FailedMatch;
  const position = failed.getRightmostFailurePosition();
  const tokens = scan(source);
  // A lexical error stops VRL's parser wherever it is; a reserved word is only reported if it
  // comes before the syntax error.
  for (const token of tokens) {
    const problem = lexicalProblem(token, byte);
    if (problem) return problem;
  }
  const reserved = tokens.find(
    (token) =>
      token.start <= position && token.kind === 'identifier' && RESERVED_IDENTIFIERS.has(token.node.sourceString),
  );
  if (reserved) return reservedKeyword([byte(reserved.start), byte(reserved.end)]);

  const expected = expectedTokens(failed.getRightmostFailures());
  const toBytes = ([start, end]: [number, number]): Span => [byte(start), byte(end)];
  const pathEnd = endOfQueryPath(source, position);
  if (pathEnd) return unexpected(toBytes(pathEnd), 'end of query path', expected);
  if (position >= source.length) {
    // VRL places the end of the program after its last token, before trailing blanks.
    const end = endWithout(source, /[ \t\r]/);
    return unexpected(toBytes([end, end]), undefined, expected);
  }
  if (source[position] === '\n')
    return unexpected(toBytes([position, position + 1]), 'syntax token: "Newline"', expected);
  const token = tokens.find((candidate) => candidate.end > position)!;
  const { kind, start, end } = describe(token);
  return unexpected(toBytes([start, end]), `syntax token: "${kind}"`, expected);
}
