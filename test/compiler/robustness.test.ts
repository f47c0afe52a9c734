// The front end answers every input with a program or diagnostics, never with an internal exception:
// the registry's example programs, deterministically mutated (characters inserted and removed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FUNCTIONS } from '../../compiler/functions/index.js';
import { checkProgram } from '../../compiler/compile.js';
import { CompileError } from '../../compiler/diagnostics/diagnostic.js';

const PIECES = [
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '.',
  '%',
  '!',
  '??',
  '|',
  '|=',
  ',',
  '=',
  '"',
  "'",
  '\n',
  ' ',
  'x',
  '-> |a|',
  '1',
  '"é"',
  'if',
  'else',
  'abort',
  'return',
  '#',
  '{{',
  '}}',
  '\\',
  "s'",
  "t'",
  "r'",
];

test('2,000 mutated programs compile or fail with diagnostics only', async () => {
  const sources = FUNCTIONS.flatMap((f) => f.examples.map((e) => e.source));
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const crashes: string[] = [];
  let rejected = 0;
  for (let n = 0; n < 2000; n++) {
    let source = sources[random(sources.length)]!;
    for (let edits = random(3) + 1; edits > 0; edits--) {
      const at = random(source.length + 1);
      source = random(2)
        ? source.slice(0, at) + PIECES[random(PIECES.length)] + source.slice(at)
        : source.slice(0, at) + source.slice(at + 1 + random(3));
    }
    try {
      checkProgram(source);
    } catch (e) {
      if (e instanceof CompileError && e.diagnostics.length > 0) rejected++;
      else crashes.push(`${JSON.stringify(source)}: ${(e as Error).stack}`);
    }
  }
  assert.equal(crashes.slice(0, 3), [], `${crashes.length} internal errors`);
  assert.ok(rejected > 500, `only ${rejected} of 2000 mutations were rejected: the mutations are too mild`);
});

test.run();
