import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diagnostic, primary, secondary } from '../../../compiler/diagnostics/diagnostic.js';
import { renderDiagnostics } from '../../../compiler/diagnostics/render.js';

const lines = (...rows: string[]) => rows.join('\n');

const LANG_NOTES = [
  '  = see language documentation at https://vrl.dev',
  '  = try your code in the VRL REPL, learn more at https://vrl.dev/examples',
];

// The three samples of DESIGN.md §6, byte for byte.

test('E100: same-range labels hang in reverse order, notes in VRL order', () => {
  const d = diagnostic(
    100,
    'unhandled error',
    [
      primary([1, 19], 'expression can result in runtime error'),
      secondary([1, 19], 'handle the error case to ensure runtime success'),
    ],
    [{ kind: 'see-error-docs' }],
  );
  assert.is(
    renderDiagnostics('\nparse_json("true")', [d]),
    lines(
      'error[E100]: unhandled error',
      '  ┌─ :2:1',
      '  │',
      '2 │ parse_json("true")',
      '  │ ^^^^^^^^^^^^^^^^^^',
      '  │ │',
      '  │ expression can result in runtime error',
      '  │ handle the error case to ensure runtime success',
      '  │',
      '  = see documentation about error handling at https://errors.vrl.dev/#handling',
      '  = learn more about error code 100 at https://errors.vrl.dev/100',
      ...LANG_NOTES,
    ),
  );
});

test('E651: trailing label message, pointers to the hanging ones', () => {
  const d = diagnostic(651, 'unnecessary error coalescing operation', [
    primary([1, 6], "this expression can't fail"),
    secondary([10, 15], 'this expression never resolves'),
    secondary([7, 9], 'remove this error coalescing operation'),
  ]);
  assert.is(
    renderDiagnostics('\n"foo" ?? "bar"', [d]),
    lines(
      'error[E651]: unnecessary error coalescing operation',
      '  ┌─ :2:1',
      '  │',
      '2 │ "foo" ?? "bar"',
      '  │ ^^^^^ -- ----- this expression never resolves',
      '  │ │     │',
      '  │ │     remove this error coalescing operation',
      "  │ this expression can't fail",
      '  │',
      ...LANG_NOTES,
    ),
  );
});

test('E105: code docs note for codes 100-110', () => {
  const d = diagnostic(105, 'call to undefined function', [
    primary([1, 17], 'undefined function'),
    secondary([1, 17], 'did you mean "parse_duration"?'),
  ]);
  assert.is(
    renderDiagnostics('\nunknown_function(.foo, .bar)', [d]),
    lines(
      'error[E105]: call to undefined function',
      '  ┌─ :2:1',
      '  │',
      '2 │ unknown_function(.foo, .bar)',
      '  │ ^^^^^^^^^^^^^^^^',
      '  │ │',
      '  │ undefined function',
      '  │ did you mean "parse_duration"?',
      '  │',
      '  = learn more about error code 105 at https://errors.vrl.dev/105',
      ...LANG_NOTES,
    ),
  );
});

// Line layout.

const twelveLines = Array.from({ length: 12 }, (_, i) => `.f${i + 1} = ${i + 1}`).join('\n');
/** Byte offset of a 1-based line and 0-based column of `twelveLines` (all ASCII). */
const at = (line: number, column: number) =>
  twelveLines
    .split('\n')
    .slice(0, line - 1)
    .reduce((offset, text) => offset + text.length + 1, 0) + column;

test('distant lines: two-digit gutter, `·` break, locus from the primary label', () => {
  const d = diagnostic(640, 'no-op assignment', [
    primary([at(10, 0), at(10, 4)], 'second'),
    secondary([at(3, 0), at(3, 3)], 'first'),
  ]);
  assert.is(
    renderDiagnostics(twelveLines, [d]),
    lines(
      'error[E640]: no-op assignment',
      '   ┌─ :10:1',
      '   │',
      ' 3 │ .f3 = 3',
      '   │ --- first',
      '   ·',
      '10 │ .f10 = 10',
      '   │ ^^^^ second',
      '   │',
      '   = see language documentation at https://vrl.dev',
      '   = try your code in the VRL REPL, learn more at https://vrl.dev/examples',
    ),
  );
});

test('a single unlabelled line between labelled ones is shown instead of a break', () => {
  const d = diagnostic(640, 'no-op assignment', [
    primary([at(10, 0), at(10, 4)], 'second'),
    secondary([at(8, 0), at(8, 3)], 'first'),
  ]);
  assert.is(
    renderDiagnostics(twelveLines, [d]),
    lines(
      'error[E640]: no-op assignment',
      '   ┌─ :10:1',
      '   │',
      ' 8 │ .f8 = 8',
      '   │ --- first',
      ' 9 │ .f9 = 9',
      '10 │ .f10 = 10',
      '   │ ^^^^ second',
      '   │',
      '   = see language documentation at https://vrl.dev',
      '   = try your code in the VRL REPL, learn more at https://vrl.dev/examples',
    ),
  );
});

test('non-ASCII source: byte spans become char columns', () => {
  // `é` is 2 bytes: the string covers bytes 0..8 but 7 chars; `1` is at byte 11, char 10
  const d = diagnostic(110, 'invalid argument type', [primary([11, 12], 'an integer'), secondary([0, 8], 'a string')]);
  assert.is(
    renderDiagnostics('"héllo" + 1', [d]),
    lines(
      'error[E110]: invalid argument type',
      '  ┌─ :1:11',
      '  │',
      '1 │ "héllo" + 1',
      '  │ -------   ^ an integer',
      '  │ │',
      '  │ a string',
      '  │',
      '  = learn more about error code 110 at https://errors.vrl.dev/110',
      ...LANG_NOTES,
    ),
  );
});

test('wide characters take two caret columns', () => {
  // `日` and `本` are 3 bytes each and 2 columns wide
  const d = diagnostic(110, 'invalid argument type', [primary([11, 12], 'an integer'), secondary([0, 8], 'a string')]);
  assert.is(
    renderDiagnostics('"日本" + 1', [d]),
    lines(
      'error[E110]: invalid argument type',
      '  ┌─ :1:8',
      '  │',
      '1 │ "日本" + 1',
      '  │ ------   ^ an integer',
      '  │ │',
      '  │ a string',
      '  │',
      '  = learn more about error code 110 at https://errors.vrl.dev/110',
      ...LANG_NOTES,
    ),
  );
});

test('tabs expand to 4-column tab stops; several diagnostics are separated by a blank line', () => {
  const source = '\tfoo = 1\na\tb';
  const diagnostics = [
    diagnostic(701, 'undefined variable', [primary([1, 4], 'undefined')]),
    diagnostic(701, 'undefined variable', [primary([11, 12], 'b here')]),
  ];
  assert.is(
    renderDiagnostics(source, diagnostics),
    lines(
      'error[E701]: undefined variable',
      '  ┌─ :1:2',
      '  │',
      '1 │     foo = 1',
      '  │     ^^^ undefined',
      '  │',
      ...LANG_NOTES,
      '',
      'error[E701]: undefined variable',
      '  ┌─ :2:3',
      '  │',
      '2 │ a   b',
      '  │     ^ b here',
      '  │',
      ...LANG_NOTES,
    ),
  );
});

test('a zero-width label at the end of input gets one caret past the text', () => {
  const d = diagnostic(203, 'syntax error', [primary([7, 7], 'unexpected end of program')]);
  assert.is(
    renderDiagnostics('upcase(', [d]),
    lines(
      'error[E203]: syntax error',
      '  ┌─ :1:8',
      '  │',
      '1 │ upcase(',
      '  │        ^ unexpected end of program',
      '  │',
      ...LANG_NOTES,
    ),
  );
});

test('the end of input after a final newline is on an empty last line', () => {
  const d = diagnostic(203, 'syntax error', [primary([8, 8], 'unexpected end of program')]);
  assert.is(
    renderDiagnostics('upcase(\n', [d]),
    lines(
      'error[E203]: syntax error',
      '  ┌─ :2:1',
      '  │',
      '2 │',
      '  │ ^ unexpected end of program',
      '  │',
      ...LANG_NOTES,
    ),
  );
});

test('overlapping labels: no trailing message, primary carets win', () => {
  const d = diagnostic(100, 'x', [primary([0, 4], 'over'), secondary([2, 6], 'lap'), secondary([5, 5], '')]);
  assert.is(
    renderDiagnostics('abcdef', [d]),
    lines(
      'error[E100]: x',
      '  ┌─ :1:1',
      '  │',
      '1 │ abcdef',
      '  │ ^^^^--',
      '  │ │ │',
      '  │ │ lap',
      '  │ over',
      '  │',
      '  = learn more about error code 100 at https://errors.vrl.dev/100',
      ...LANG_NOTES,
    ),
  );
});

test('three same-range labels: each new one goes before the last equal one', () => {
  const d = diagnostic(100, 'x', [secondary([0, 3], 'A'), primary([0, 3], 'B'), secondary([0, 3], 'C')]);
  assert.is(
    renderDiagnostics('abc', [d]),
    lines(
      'error[E100]: x',
      '  ┌─ :1:1',
      '  │',
      '1 │ abc',
      '  │ ^^^',
      '  │ │',
      '  │ A',
      '  │ C',
      '  │ B',
      '  │',
      '  = learn more about error code 100 at https://errors.vrl.dev/100',
      ...LANG_NOTES,
    ),
  );
});

test('no labels: no snippet, notes with a zero-width gutter, multi-line note indented', () => {
  const d = diagnostic(100, 'x', [], [{ kind: 'example', text: 'line one\n  line two' }]);
  assert.is(
    renderDiagnostics('abc', [d]),
    lines(
      'error[E100]: x',
      ' = example: line one',
      '     line two',
      ' = learn more about error code 100 at https://errors.vrl.dev/100',
      ' = see language documentation at https://vrl.dev',
      ' = try your code in the VRL REPL, learn more at https://vrl.dev/examples',
    ),
  );
});

// Multi-line labels.

test('multi-line label starting mid-line: `╭──^` top, `│` left, `╰─^` bottom', () => {
  const source = '.a = parse_json(\n  "{}",\n  .b\n)';
  const d = diagnostic(103, 'unhandled fallible assignment', [
    primary([5, source.length], 'this expression is fallible'),
    secondary([0, 2], 'or change this to an infallible assignment:'),
  ]);
  assert.is(
    renderDiagnostics(source, [d]),
    lines(
      'error[E103]: unhandled fallible assignment',
      '  ┌─ :1:6',
      '  │',
      '1 │   .a = parse_json(',
      '  │ │ -- or change this to an infallible assignment:',
      '  │ ╭──────^',
      '2 │ │   "{}",',
      '3 │ │   .b',
      '4 │ │ )',
      '  │ ╰─^ this expression is fallible',
      '  │',
      '  = learn more about error code 103 at https://errors.vrl.dev/103',
      ...LANG_NOTES,
    ),
  );
});

test('long multi-line label: lines past the start context collapse into a break', () => {
  const source = 'x = [\n  1,\n  2,\n  3,\n  4,\n  5,\n  6\n]';
  const d = diagnostic(100, 'unhandled error', [primary([4, source.length], 'long one')]);
  assert.is(
    renderDiagnostics(source, [d]),
    lines(
      'error[E100]: unhandled error',
      '  ┌─ :1:5',
      '  │',
      '1 │   x = [',
      '  │ ╭─────^',
      '2 │ │   1,',
      '3 │ │   2,',
      '4 │ │   3,',
      '  · │',
      '7 │ │   6',
      '8 │ │ ]',
      '  │ ╰─^ long one',
      '  │',
      '  = learn more about error code 100 at https://errors.vrl.dev/100',
      ...LANG_NOTES,
    ),
  );
});

test('multi-line label starting in the indentation opens on the source line; inner single label', () => {
  const source = 'f(\n  a\n)';
  const d = diagnostic(100, 'x', [primary([0, source.length], 'outer'), secondary([5, 6], 'inner')]);
  assert.is(
    renderDiagnostics(source, [d]),
    lines(
      'error[E100]: x',
      '  ┌─ :1:1',
      '  │',
      '1 │ ╭ f(',
      '2 │ │   a',
      '  │ │   - inner',
      '3 │ │ )',
      '  │ ╰─^ outer',
      '  │',
      '  = learn more about error code 100 at https://errors.vrl.dev/100',
      ...LANG_NOTES,
    ),
  );
});

// Severity and colour.

const abortWarning = diagnostic(620, "can't abort infallible function", [primary([0, 2], 'this')]);

test('warnings have a `warning` header', () => {
  assert.is(
    renderDiagnostics('.a = 1', [abortWarning]),
    lines(
      "warning[E620]: can't abort infallible function",
      '  ┌─ :1:1',
      '  │',
      '1 │ .a = 1',
      '  │ ^^ this',
      '  │',
      ...LANG_NOTES,
    ),
  );
  assert.is(renderDiagnostics('.a = 1', [abortWarning], { color: false }), renderDiagnostics('.a = 1', [abortWarning]));
});

// termcolor writes a reset before every style; codespan resets after each styled piece.
const R = '\x1b[0m';
const BOLD = '\x1b[1m';
const RED = '\x1b[31m';
const YELLOW = '\x1b[33m';
const BLUE = '\x1b[34m';
const blue = (text: string) => `${R}${BLUE}${text}${R}`;
const colouredLangNotes = [
  `  ${blue('=')} see language documentation at https://vrl.dev`,
  `  ${blue('=')} try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
];

test('colour: warning in bold intense yellow, primary labels yellow, gutter blue', () => {
  assert.is(
    renderDiagnostics('.a = 1', [abortWarning], { color: true }),
    lines(
      `${R}${BOLD}\x1b[38;5;11mwarning[E620]${R}${BOLD}: can't abort infallible function${R}`,
      `  ${blue('┌─')} :1:1`,
      `  ${blue('│')}`,
      `${blue('1')} ${blue('│')} ${R}${YELLOW}.a${R} = 1`,
      `  ${blue('│')} ${R}${YELLOW}^^${R} ${R}${YELLOW}this${R}`,
      `  ${blue('│')}`,
      ...colouredLangNotes,
    ),
  );
});

test('colour: error in bold intense red, secondary labels blue, pointers coloured per label', () => {
  const d = diagnostic(651, 'unnecessary error coalescing operation', [
    primary([1, 6], "this expression can't fail"),
    secondary([10, 15], 'this expression never resolves'),
    secondary([7, 9], 'remove'),
  ]);
  const red = (text: string) => `${R}${RED}${text}${R}`;
  assert.is(
    renderDiagnostics('\n"foo" ?? "bar"', [d], { color: true }),
    lines(
      `${R}${BOLD}\x1b[38;5;9merror[E651]${R}${BOLD}: unnecessary error coalescing operation${R}`,
      `  ${blue('┌─')} :2:1`,
      `  ${blue('│')}`,
      `${blue('2')} ${blue('│')} ${red('"foo"')} ?? "bar"`,
      `  ${blue('│')} ${red('^^^^^')} ${blue('--')} ${blue('-----')} ${blue('this expression never resolves')}`,
      `  ${blue('│')} ${red('│')}     ${blue('│')}`,
      `  ${blue('│')} ${red('│')}     ${blue('remove')}`,
      `  ${blue('│')} ${red("this expression can't fail")}`,
      `  ${blue('│')}`,
      ...colouredLangNotes,
    ),
  );
});

test('colour: multi-line label gutter and covered source in the primary colour', () => {
  const d = diagnostic(100, 'x', [primary([0, 8], 'outer')]);
  const red = (text: string) => `${R}${RED}${text}${R}`;
  assert.is(
    renderDiagnostics('f(\n  a\n)', [d], { color: true }),
    lines(
      `${R}${BOLD}\x1b[38;5;9merror[E100]${R}${BOLD}: x${R}`,
      `  ${blue('┌─')} :1:1`,
      `  ${blue('│')}`,
      `${blue('1')} ${blue('│')} ${red('╭')} ${red('f(')}`,
      `${blue('2')} ${blue('│')} ${red('│')} ${red('  a')}`,
      `${blue('3')} ${blue('│')} ${red('│')} ${red(')')}`,
      `  ${blue('│')} ${red('╰')}${red('─^ outer')}`,
      `  ${blue('│')}`,
      `  ${blue('=')} learn more about error code 100 at https://errors.vrl.dev/100`,
      ...colouredLangNotes,
    ),
  );
});

test('empty input list renders nothing; spans outside the source are rejected', () => {
  assert.is(renderDiagnostics('abc', []), '');
  assert.throws(() => renderDiagnostics('abc', [diagnostic(100, 'x', [primary([2, 9])])]), RangeError);
});

test.run();
