// Parses remap source into the AST of ../ast.ts, or into the syntax diagnostic VRL would report.
// Like VRL, only the first syntax error is reported.

import type { Expr, Program } from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { buildStatements, type Issue } from './build.js';
import { LEXICAL_CODES } from './errors.js';
import { explainFailure } from './explain.js';
import { grammar } from './grammar.js';
import { MAX_SOURCE_BYTES, nestedTooDeeply, scanSource, tooLarge } from './limits.js';
import { byteOffsets } from './offsets.js';

export interface ParseResult {
  /** Present when there are no diagnostics. */
  program?: Program;
  diagnostics: Diagnostic[];
}

export function parse(source: string): ParseResult {
  const byte = byteOffsets(source);
  const byteLength = byte(source.length);
  if (byteLength > MAX_SOURCE_BYTES) return { diagnostics: [tooLarge(byteLength)] };
  const { tooDeep, statementEnds } = scanSource(source);
  if (tooDeep) return { diagnostics: [nestedTooDeeply([byte(tooDeep[0]), byte(tooDeep[1])])] };
  const built = matchStatements(source, statementEnds, byte);
  if (!built) {
    // The whole program, for the diagnostic VRL gives (or the statements, if the split was wrong).
    const match = grammar.match(source);
    if (match.failed()) return { diagnostics: [explainFailure(source, match, byte)] };
    return withIssues(byteLength, buildStatements(match, byte, 0));
  }
  return withIssues(byteLength, built);
}

/**
 * Characters of whole statements matched at once: a match costs ohm's memo table a few KB per character,
 * and has a fixed cost that one match per line would pay too often.
 */
const MATCH_CHARS = 8 * 1024;

/**
 * Matches the program a group of top-level statements at a time, so that ohm's memo table holds a few
 * statements rather than the program. Undefined when a group does not match.
 */
function matchStatements(
  source: string,
  statementEnds: readonly number[],
  byte: (index: number) => number,
): { statements: Expr[]; issues: Issue[] } | undefined {
  const statements: Expr[] = [];
  const issues: Issue[] = [];
  let start = 0;
  for (const end of [...statementEnds, source.length]) {
    if (end - start < MATCH_CHARS && end < source.length) continue;
    const match = grammar.match(source.slice(start, end));
    if (match.failed()) return undefined;
    const built = buildStatements(match, byte, start);
    statements.push(...built.statements);
    issues.push(...built.issues);
    start = end + 1;
  }
  return { statements, issues };
}

function withIssues(byteLength: number, { statements, issues }: { statements: Expr[]; issues: Issue[] }): ParseResult {
  const program: Program = { type: 'Program', span: [0, byteLength], exprs: statements };
  if (issues.length === 0) return { program, diagnostics: [] };
  // A lexical error stops VRL's parser at once; other problems are reported in source order.
  const rank = (issue: Issue) => [LEXICAL_CODES.has(issue.diagnostic.code) ? 0 : 1, issue.at] as const;
  const first = issues.reduce((best, issue) => {
    const [a, b] = [rank(issue), rank(best)];
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? issue : best;
  });
  return { diagnostics: [first.diagnostic] };
}
