import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPL_HELP, replHelp } from '../../cli/repl-help.js';

test('help lists the commands; other lines are not help commands', () => {
  assert.is(replHelp('help'), REPL_HELP);
  assert.match(REPL_HELP, /help functions/);
  assert.is(replHelp('.a = 1'), undefined);
  assert.is(replHelp('helper = 1'), undefined);
});

test('help functions (funcs, fs) lists every function, sorted', () => {
  const list = replHelp('help functions')!;
  assert.is(replHelp('help fs'), list);
  assert.is(replHelp('help funcs'), list);
  const names = list.split(/\s+/).filter(Boolean);
  assert.ok(names.includes('parse_json') && names.includes('upcase'));
  assert.equal(names, [...names].sort());
});

test('help docs <function> prints its signature, parameters and examples; aliases resolve', () => {
  const docs = replHelp('help docs upcase')!;
  assert.match(docs, /^upcase\(value\)\n/);
  assert.match(docs, /Parameters:\n {2}value: string/);
  assert.match(docs, /upcase\("Hello, World!"\)\n=> "HELLO, WORLD!"/);
  assert.match(replHelp('help docs parse_json')!, /\(fallible\)/);
  assert.match(replHelp('help docs nope')!, /no function "nope"/);
  assert.match(replHelp('help docs')!, /https:\/\/vrl\.dev/);
});

test("help error <code> points at the code's page", () => {
  assert.is(replHelp('help error 103'), 'error E103: https://errors.vrl.dev/103');
  assert.is(replHelp('help error E110'), 'error E110: https://errors.vrl.dev/110');
  assert.is(replHelp('help error x'), 'not an error code: x');
  assert.match(replHelp('help me please')!, /unknown help command/);
});

test.run();
