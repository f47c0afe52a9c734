import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RustRegex } from '../../abi/regex.js';
import { rustMatches } from '../../abi/rust-regex.js';

const global = (pattern: string) => new RustRegex(pattern);
const spans = (pattern: string, text: string) => [...rustMatches(global(pattern), text)].map((m) => [m.start, m.end]);

test('matches skip an empty match where the previous match ended, and step over whole characters', () => {
  assert.equal(spans('\\d*', 'a1b22c'), [
    [0, 0],
    [1, 2],
    [3, 5],
    [6, 6],
  ]);
  assert.equal(spans('a*', 'xay'), [
    [0, 0],
    [1, 2],
    [3, 3],
  ]);
  assert.equal(spans('', '😀'), [
    [0, 0],
    [2, 2],
  ]);
});

test.run();
