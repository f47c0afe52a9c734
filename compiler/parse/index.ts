// Parses remap source into the AST of ../ast.ts, or into the syntax diagnostic VRL would report.
// Like VRL, only the first syntax error is reported.

import type { Program } from '../ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { buildProgram, type Issue } from './build.js';
import { LEXICAL_CODES } from './errors.js';
import { explainFailure } from './explain.js';
import { grammar } from './grammar.js';
import { firstTooDeep, MAX_SOURCE_BYTES, nestedTooDeeply, tooLarge } from './limits.js';
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
  const tooDeep = firstTooDeep(source);
  if (tooDeep) return { diagnostics: [nestedTooDeeply([byte(tooDeep[0]), byte(tooDeep[1])])] };
  const match = grammar.match(source);
  if (match.failed()) return { diagnostics: [explainFailure(source, match, byte)] };
  const { program, issues } = buildProgram(match, byte, byteLength);
  if (issues.length === 0) return { program, diagnostics: [] };
  // A lexical error stops VRL's parser at once; other problems are reported in source order.
  const rank = (issue: Issue) => [LEXICAL_CODES.has(issue.diagnostic.code) ? 0 : 1, issue.at] as const;
  const first = issues.reduce((best, issue) => {
    const [a, b] = [rank(issue), rank(best)];
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? issue : best;
  });
  return { diagnostics: [first.diagnostic] };
}
