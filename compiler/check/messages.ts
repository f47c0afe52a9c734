// The checker's diagnostics, worded and labelled as VRL reports them (one builder per code).

import type { Span } from '../ast.js';
import { diagnostic, primary, secondary, type Diagnostic, type Note } from '../diagnostics/diagnostic.js';
import { K, describe, isAny, type Kind } from '../types/kind.js';

const seeDocs = (about: string, url: string): Note => ({ kind: 'see-docs', about, url });
const basic = (text: string): Note => ({ kind: 'basic', text });
const ERROR_DOCS: Note = { kind: 'see-error-docs' };

/** "this expression resolves to …": `any`, `the exact type integer`, `one of string or integer`. */
function resolvesTo(k: Kind): string {
  if (isAny(k)) return 'any';
  const name = describe(k);
  return name.includes(' or ') ? `one of ${name}` : `the exact type ${name}`;
}

export const unhandledError = (span: Span): Diagnostic =>
  diagnostic(
    100,
    'unhandled error',
    [
      primary(span, 'expression can result in runtime error'),
      secondary(span, 'handle the error case to ensure runtime success'),
    ],
    [ERROR_DOCS],
  );

export const invalidRegex = (span: Span, error: string): Diagnostic =>
  diagnostic(
    101,
    'invalid regular expression',
    [primary(span, error)],
    [seeDocs('regular expressions', 'https://vrl.dev/expressions/#regular-expression')],
  );

export const nonBooleanPredicate = (span: Span, kind: Kind): Diagnostic =>
  diagnostic(
    102,
    'non-boolean predicate',
    [
      primary(span, 'this predicate must resolve to a boolean'),
      secondary(span, `instead it resolves to ${describe(kind)}`),
    ],
    [{ kind: 'coerce-value' }, seeDocs('if expressions', 'https://vrl.dev/expressions/#if')],
  );

/** `argumentHint`: the first argument whose kind made the call fallible, when that is the reason. */
export function unhandledFallibleAssignment(
  valueSpan: Span,
  targetSpan: Span,
  suggestion: string,
  argumentHint?: { labels: string[] },
): Diagnostic {
  return diagnostic(
    103,
    'unhandled fallible assignment',
    [
      primary(
        valueSpan,
        "this expression is fallible because at least one argument's type cannot be verified to be valid",
      ),
      ...(argumentHint?.labels ?? []).map((m) => primary(valueSpan, m)),
      secondary(targetSpan, 'or change this to an infallible assignment:'),
      secondary(targetSpan, suggestion),
    ],
    [ERROR_DOCS, { kind: 'see-function-characteristics-docs' }],
  );
}

export const unnecessaryErrorAssignment = (errSpan: Span, valueSpan: Span, okSpan: Span, use: string): Diagnostic =>
  diagnostic(
    104,
    'unnecessary error assignment',
    [
      primary(errSpan, 'this error assignment is unnecessary'),
      secondary(valueSpan, "because this expression can't fail"),
      secondary(okSpan, `use: ${use}`),
    ],
    [ERROR_DOCS],
  );

export function undefinedFunction(span: Span, guess: string | undefined): Diagnostic {
  const labels = [primary(span, 'undefined function')];
  if (guess) labels.push(secondary(span, `did you mean "${guess}"?`));
  return diagnostic(105, 'call to undefined function', labels);
}

export const tooManyArguments = (span: Span, max: number): Diagnostic =>
  diagnostic(
    106,
    'wrong number of function arguments',
    [
      primary(span, 'too many function arguments'),
      secondary(span, `this function takes a maximum of ${max} argument${max === 1 ? '' : 's'}`),
    ],
    [seeDocs('function arguments', 'https://vrl.dev/expressions/#arguments')],
  );

export const missingArgument = (span: Span, name: string, position: number): Diagnostic =>
  diagnostic(107, 'missing function argument', [
    primary(span, `required argument missing: "${name}" (position ${position})`),
  ]);

export const unknownKeyword = (span: Span, nameSpan: Span, keywords: readonly string[]): Diagnostic =>
  diagnostic(108, 'unknown function argument keyword', [
    primary(span, 'unknown keyword'),
    secondary(nameSpan, `this function accepts the following keywords: ${keywords.map((k) => `"${k}"`).join(', ')}`),
  ]);

export const unexpectedClosure = (closureSpan: Span, callSpan: Span): Diagnostic =>
  diagnostic(109, 'unexpected closure', [
    primary(closureSpan, 'unexpected closure'),
    secondary(callSpan, 'this function does not accept a closure'),
  ]);

/** How VRL suggests fixing a value of the wrong kind: an assertion, and a coercion with a fallback. */
const FIXES: ReadonlyArray<[bits: number, assert: string, coerce?: [fn: string, fallback: string]]> = [
  [K.Bytes, 'string', ['to_string', '"default"']],
  [K.Integer, 'int', ['to_int', '0']],
  [K.Float, 'float', ['to_float', '0.0']],
  [K.Boolean, 'bool', ['to_bool', 'false']],
  [K.Timestamp, 'timestamp', ['to_unix_timestamp', 'now()']],
  [K.Object, 'object'],
  [K.Array, 'array'],
];

export function invalidArgumentType(
  argSpan: Span,
  expectedSpan: Span,
  param: string,
  got: Kind,
  expected: Kind,
  argText: string,
  callText: string,
): Diagnostic {
  const notes: Note[] = [];
  const fix = FIXES.find(([bits]) => expected.bits === bits);
  if (fix) {
    const [, assert, coerce] = fix;
    notes.push(
      basic('try: ensuring an appropriate type at runtime'),
      basic(' '),
      basic(`    ${argText} = ${assert}!(${argText})`),
      basic(`    ${callText}`),
      basic(' '),
    );
    if (coerce) {
      notes.push(
        basic(
          'try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails',
        ),
        basic(' '),
        basic(`    ${argText} = ${coerce[0]}(${argText}) ?? ${coerce[1]}`),
        basic(`    ${callText}`),
        basic(' '),
      );
    }
    notes.push(ERROR_DOCS);
  }
  return diagnostic(
    110,
    'invalid argument type',
    [
      primary(argSpan, `this expression resolves to ${resolvesTo(got)}`),
      secondary(expectedSpan, `but the parameter "${param}" expects ${resolvesTo(expected)}`),
    ],
    notes,
  );
}

export const missingClosure = (span: Span, example: string | undefined): Diagnostic =>
  diagnostic(
    111,
    'missing closure',
    [primary(span, 'this function expects a closure')],
    example ? [{ kind: 'example', text: example }] : [],
  );

export const closureArity = (nameSpan: Span, paramsSpan: Span, expected: number, got: number): Diagnostic =>
  diagnostic(120, 'invalid closure arity', [
    primary(nameSpan, `this function requires a closure with ${expected} argument(s)`),
    secondary(paramsSpan, `but ${got} argument(s) are supplied`),
  ]);

export const closureInputType = (callSpan: Span, kind: Kind): Diagnostic =>
  diagnostic(121, 'type mismatch in closure parameter', [
    primary(callSpan, 'the closure tied to this function call expects a different input value'),
    secondary(callSpan, `expression has an inferred type of ${describe(kind)} where an array or object was expected`),
  ]);

export const closureReturnType = (span: Span, expected: Kind, got: Kind): Diagnostic =>
  diagnostic(122, 'type mismatch in closure return type', [
    primary(span, 'block returns invalid value type'),
    secondary(span, `expected: ${describe(expected)}`),
    secondary(span, `received: ${describe(got)}`),
  ]);

export const nonStringAbortMessage = (span: Span, kind: Kind): Diagnostic =>
  diagnostic(
    113,
    'non-string abort message',
    [
      primary(span, 'abort only accepts an expression argument resolving to a string'),
      secondary(span, `this expression resolves to ${describe(kind)}`),
    ],
    [{ kind: 'coerce-value' }, seeDocs('type coercion', 'https://functions.vrl.dev/#coerce-functions')],
  );

/**
 * A function's own compile-time rejection of an argument (E400-E403, or 0 for a plain expression error,
 * which has no notes), wrapped as VRL does.
 */
export const functionCompilation = (span: Span, code: number, message: string, labels: readonly string[]): Diagnostic =>
  diagnostic(
    610,
    `function compilation error: error[E${code}] ${message}`,
    labels.map((m, i) => (i === 0 ? primary(span, m) : secondary(span, m))),
    code === 0 ? [] : [{ kind: 'see-code-docs', code }],
  );

export const invalidTimestamp = (span: Span, error: string): Diagnostic =>
  diagnostic(
    601,
    'invalid timestamp',
    [primary(span, `invalid timestamp format: ${error}`)],
    [seeDocs('timestamps', 'https://vrl.dev/expressions/#timestamp')],
  );

export const abortInfallible = (nameSpan: Span, bangSpan: Span): Diagnostic =>
  diagnostic(
    620,
    "can't abort infallible function",
    [primary(nameSpan, "this function can't fail"), secondary(bangSpan, 'remove this abort (!) instruction')],
    [ERROR_DOCS],
  );

export const fallibleArgument = (span: Span): Diagnostic =>
  diagnostic(
    630,
    'fallible argument',
    [
      primary(span, 'this expression can fail'),
      secondary(span, 'handle the error before passing it in as an argument'),
    ],
    [ERROR_DOCS],
  );

export const fallibleAbortMessage = (span: Span): Diagnostic =>
  diagnostic(
    631,
    'unhandled fallible expression',
    [
      primary(span, 'abort only accepts an infallible expression argument'),
      secondary(span, 'handle errors before using the expression as an abort message'),
    ],
    [ERROR_DOCS],
  );

export const fallibleReturnValue = (keywordSpan: Span): Diagnostic =>
  diagnostic(
    631,
    'unhandled fallible expression',
    [
      primary(keywordSpan, 'return only accepts an infallible expression argument'),
      secondary(keywordSpan, 'handle errors before using the expression as a return value'),
    ],
    [ERROR_DOCS],
  );

export const noopAssignment = (valueSpan: Span, targetSpan: Span, removeSpan: Span): Diagnostic =>
  diagnostic(640, 'unnecessary no-op assignment', [
    primary(valueSpan, 'this no-op assignment has no effect'),
    secondary(targetSpan, 'either assign to a path or variable here'),
    secondary(removeSpan, 'or remove the assignment'),
  ]);

export const readOnlyMutation = (span: Span): Diagnostic =>
  diagnostic(315, 'mutation of read-only value', [primary(span, 'mutation of read-only value')]);

export function invalidParentSegment(
  segmentSpan: Span,
  parentSpan: Span,
  parentKind: Kind,
  container: 'object' | 'array',
  parentText: string,
  assignmentText: string,
): Diagnostic {
  const what =
    container === 'array'
      ? 'indexing into a non-array type is unsupported'
      : 'querying a field of a non-object type is unsupported';
  return diagnostic(
    642,
    'parent path segment rejects this mutation',
    [
      primary(segmentSpan, what),
      secondary(parentSpan, `this path resolves to a value of type ${describe(parentKind)}`),
    ],
    [
      basic(`try: change parent value to ${container}, before assignment`),
      basic(' '),
      basic(`    ${parentText} = ${container === 'array' ? '[]' : '{}'}`),
      basic(`    ${assignmentText}`),
      basic(' '),
      ERROR_DOCS,
    ],
  );
}

export const unnecessaryCoalesce = (lhs: Span, op: Span, rhs: Span): Diagnostic =>
  diagnostic(651, 'unnecessary error coalescing operation', [
    primary(lhs, "this expression can't fail"),
    secondary(rhs, 'this expression never resolves'),
    secondary(op, 'remove this error coalescing operation'),
  ]);

export const chainedComparison = (operatorSpan: Span): Diagnostic =>
  diagnostic(
    650,
    "comparison operators can't be chained together",
    [primary(operatorSpan)],
    [seeDocs('comparisons', 'https://vrl.dev/expressions/#comparison')],
  );

export const mergeNonObject = (...spans: Span[]): Diagnostic =>
  diagnostic(
    652,
    'only objects can be merged',
    spans.map((span) => primary(span, 'this expression must resolve to an object')),
  );

export const nonBooleanNegation = (opSpan: Span, exprSpan: Span, kind: Kind): Diagnostic =>
  diagnostic(
    660,
    'non-boolean negation',
    [
      primary(opSpan, 'negation only works on boolean values'),
      secondary(exprSpan, `this expression resolves to ${describe(kind)}`),
    ],
    [{ kind: 'coerce-value' }, seeDocs('type coercion', 'https://functions.vrl.dev/#coerce-functions')],
  );

export function undefinedVariable(span: Span, guess: string | undefined): Diagnostic {
  const labels = [primary(span, 'undefined variable')];
  if (guess) labels.push(secondary(span, `did you mean "${guess}"?`));
  return diagnostic(701, 'call to undefined variable', labels);
}

/** E900 for a variable never read or a value never used (`what` is e.g. "variable `x`", "literal `1`"). */
export const unused = (span: Span, what: string): Diagnostic =>
  diagnostic(
    900,
    `unused ${what}`,
    [primary(span, 'help: use the result of this expression or remove it')],
    [basic('this expression has no side-effects')],
  );

/** Levenshtein distance over code points. */
function distance(a: string, b: string): number {
  const x = [...a],
    y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

/** The closest candidate (first one on ties), as VRL's "did you mean" picks it. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(name, c);
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}
