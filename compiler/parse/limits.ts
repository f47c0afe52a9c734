// What the parser learns before ohm runs: whether the program is within the limits that keep it from
// exhausting the heap or the stack, and where its top-level statements end (they are matched one at a
// time). Ohm's matcher recurses once per nesting level (a few dozen JS frames per bracket) and memoizes
// every rule at every position (a few KB per source byte); the checker and code generator recurse once
// per AST level.

import type { Span } from '../ast.js';
import { diagnostic, primary, type Diagnostic } from '../diagnostics/diagnostic.js';

/**
 * Bytes of UTF-8 source a program may have. A program with a syntax error is matched whole for its
 * diagnostic, which takes about 850 MB of heap for 256 KiB (about 10,000 lines), within Node's default
 * heap on small machines; one without is matched a statement at a time.
 */
export const MAX_SOURCE_BYTES = 256 * 1024;

/**
 * Levels of brackets (groups, calls, arrays, objects, blocks, closures) a program may nest. With Node's
 * default stack, a fresh process overflows at 88 nested objects (the costliest bracket for ohm), 96 calls
 * or arrays, 110 blocks and 188 parentheses.
 */
export const MAX_NESTING_DEPTH = 50;

// Chains nest in the AST too, more cheaply than brackets, so they use fractions of a level (in 48ths):
// ohm survives 6 times more else-if links (528), chained assignments (640) or abort/return keywords
// (456) than nested objects, and the checker and code generator 25 times more operators (2240).
const LEVEL = 48;
/** An `else`, an assignment operator, `abort`, `return`: 1/6 of a level. */
const LINK = 8;
/** A binary operator or a unary `!`: 1/16 of a level. */
const OPERATOR = 3;
const BUDGET = MAX_NESTING_DEPTH * LEVEL;

const CHAIN_KEYWORDS: ReadonlySet<string> = new Set(['else', 'abort', 'return']);
const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;
const BLANK = /[ \t\r]/;

/** Without a label: the snippet would quote the program's line, which may be all of it. */
export function tooLarge(byteLength: number): Diagnostic {
  return diagnostic(
    213,
    `program too large: ${byteLength} bytes, at most ${MAX_SOURCE_BYTES} are allowed`,
    [],
    [{ kind: 'hint', text: 'split the program into several transforms' }],
  );
}

export function nestedTooDeeply(span: Span): Diagnostic {
  return diagnostic(
    212,
    'program nested too deeply',
    [primary(span, `more than ${MAX_NESTING_DEPTH} levels of nesting here`)],
    [
      {
        kind: 'hint',
        text: 'assign inner expressions to variables, or split long chains of operators, else-ifs or assignments',
      },
    ],
  );
}

export interface Scan {
  /** UTF-16 range of the first token that takes the program past `MAX_NESTING_DEPTH`. */
  tooDeep?: [number, number];
  /** UTF-16 indices of the newlines that end a top-level statement (up to `tooDeep` or an unterminated literal). */
  statementEnds: number[];
}

/**
 * A linear scan of the source that skips comments and literals (an unterminated one ends it: the parser
 * reports that). Brackets count a level each; chains count their fractions until their statement,
 * argument or item ends.
 */
export function scanSource(source: string): Scan {
  const statementEnds: number[] = [];
  /** What the contents of each open bracket cost, innermost last (the first entry is the program's). */
  const frames: Array<{ links: number; operators: number }> = [{ links: 0, operators: 0 }];
  let total = 0;
  /** The last token continues on the next line (an operator, an assignment, `else`). */
  let continues = false;
  let nextLine = { token: -1, continues: false };
  const frame = () => frames[frames.length - 1]!;
  const add = (part: 'links' | 'operators', cost: number, start: number, end: number): [number, number] | undefined => {
    frame()[part] += cost;
    total += cost;
    return total > BUDGET ? [start, end] : undefined;
  };
  const drop = (part: 'links' | 'operators') => {
    total -= frame()[part];
    frame()[part] = 0;
  };
  const endStatement = () => {
    drop('links');
    drop('operators');
  };
  const n = source.length;
  let i = 0;
  while (i < n) {
    const c = source[i]!;
    const start = i;
    let found: [number, number] | undefined;
    if (c === '#') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    } else if (
      c === '"' ||
      ((c === 's' || c === 'r' || c === 't') && source[i + 1] === "'" && !IDENTIFIER_CHAR.test(source[i - 1] ?? ''))
    ) {
      const quote = c === '"' ? '"' : "'";
      i += c === '"' ? 1 : 2;
      while (i < n && source[i] !== quote) i += source[i] === '\\' ? 2 : 1;
      if (i >= n) return { statementEnds };
      i++;
      continues = false;
      continue;
    } else if (IDENTIFIER_CHAR.test(c)) {
      while (i < n && IDENTIFIER_CHAR.test(source[i]!)) i++;
      const word = source.slice(start, i);
      continues = word === 'else';
      // The operators of an if's predicate do not enclose its else branch.
      if (word === 'else') drop('operators');
      if (CHAIN_KEYWORDS.has(word)) found = add('links', LINK, start, i);
    } else if (c === '(' || c === '[' || c === '{') {
      i++;
      frames.push({ links: 0, operators: 0 });
      total += LEVEL;
      continues = false;
      if (total > BUDGET) return { tooDeep: [start, i], statementEnds };
      continue;
    } else if (c === ')' || c === ']' || c === '}') {
      i++;
      if (frames.length > 1) {
        endStatement();
        frames.pop();
        total -= LEVEL;
      }
      continues = false;
      continue;
    } else if (c === ',' || c === ';') {
      i++;
      endStatement();
      continues = false;
      continue;
    } else if (c === '\n') {
      i++;
      // One look past a run of blank and comment lines serves every newline in it.
      if (i > nextLine.token) nextLine = nextToken(source, i);
      if (continues || nextLine.continues) continue;
      endStatement();
      if (frames.length === 1) statementEnds.push(i - 1);
      continue;
    } else if (BLANK.test(c)) {
      i++;
      continue;
    } else {
      const token = operatorAt(source, i);
      i += token.length;
      if (token.cost) found = add(token.cost === LINK ? 'links' : 'operators', token.cost, start, i);
      continues = token.cost > 0;
    }
    if (found) return { tooDeep: found, statementEnds };
  }
  return { statementEnds };
}

/** Where the next token after `i` is, and whether it continues the statement before it (`else`, a block). */
function nextToken(source: string, i: number): { token: number; continues: boolean } {
  while (i < source.length && (/\s/.test(source[i]!) || source[i] === '#')) {
    if (source[i] === '#') while (i < source.length && source[i] !== '\n') i++;
    else i++;
  }
  const continues = source[i] === '{' || (source.startsWith('else', i) && !IDENTIFIER_CHAR.test(source[i + 4] ?? ''));
  return { token: i, continues };
}

/** The punctuation token at `i` and what it costs. `f!(` (abort on error) and `->` cost nothing. */
function operatorAt(source: string, i: number): { length: number; cost: number } {
  const c = source[i]!;
  const next = source[i + 1];
  if (c === '=') return next === '=' ? { length: 2, cost: OPERATOR } : { length: 1, cost: LINK };
  if (c === '|') return next === '=' ? { length: 2, cost: LINK } : { length: next === '|' ? 2 : 1, cost: OPERATOR };
  if (c === '!') {
    if (next === '=') return { length: 2, cost: OPERATOR };
    const call = IDENTIFIER_CHAR.test(source[i - 1] ?? '') && next === '(';
    return { length: 1, cost: call ? 0 : OPERATOR };
  }
  if (c === '-' && next === '>') return { length: 2, cost: 0 };
  if ('?&<>+-*/%'.includes(c)) return { length: next === '=' || next === c ? 2 : 1, cost: OPERATOR };
  return { length: 1, cost: 0 };
}
