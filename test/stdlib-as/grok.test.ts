// The stdlib's parse_grok (`grok_parse`, on the program the host expands once per pattern) against the JS
// function it stands in for: the same fields wherever it answers; 0 (the JS function's turn) without a match
// or for a pattern that does not compile.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../support/stdlib.js';
import { jsContext } from '../support/js-context.js';
import { parse_grok } from '../../runtime/js-functions/parse_grok.js';
import type { RemapValue } from '../../abi/values.js';

const stdlib = new Stdlib();

function inStdlib(line: string, pattern: string): RemapValue | undefined {
  const result = stdlib.call('grok_parse', line, pattern);
  return 'value' in result ? result.value : undefined;
}

function inJs(line: string, pattern: string): RemapValue | string {
  try {
    return parse_grok([line, pattern], jsContext());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** Keys sorted as remap objects hold them (the JS function's object has no prototype). */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );

const CASES: Array<[string, string[]]> = [
  [
    '%{IPORHOST:client} %{USER:ident} %{USER:auth} \\[%{HTTPDATE:timestamp}\\] "%{WORD:method} %{NOTSPACE:request} HTTP/%{NUMBER:version}" %{NUMBER:status} %{NUMBER:bytes}',
    [
      '10.0.0.1 - bob [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 2326',
      'host.example.com - - [01/Mar/2024:10:01:00 +0000] "POST /ü?x=日本 HTTP/2.0" 500 0',
      'not a log line',
    ],
  ],
  [
    '%{TIMESTAMP_ISO8601:timestamp} %{LOGLEVEL:level} %{GREEDYDATA:message}',
    ['2020-10-02T23:22:12.223222Z info Hello world', '2020-10-02T23:22:12Z ERROR é', 'x'],
  ],
  // A field twice (the last group that took part wins), an optional one that may not take part, dotted names.
  ['(%{INT:n}|%{WORD:n})( %{WORD:opt})? %{NUMBER:a.b}', ['12 x 3.5', 'abc 7', 'abc def 1e3']],
  ['%{IPV4:ip}(?<rest>.*)', ['192.168.0.1 tail', '999.1.1.1']],
];

test('where the stdlib answers it gives the JS function fields; no match is left to JS', () => {
  let answered = 0;
  for (const [pattern, lines] of CASES) {
    for (const line of lines) {
      const mine = inStdlib(line, pattern);
      const theirs = inJs(line, pattern);
      stdlib.exports.reset!();
      if (mine === undefined) {
        assert.type(theirs, 'string', `${pattern} on ${line}: the stdlib passed on a line the JS function parses`);
        continue;
      }
      answered++;
      assert.is(canonical(mine), canonical(theirs), `${pattern} on ${line}`);
    }
  }
  assert.ok(answered >= 8, `${answered} answered`);
});

test('a pattern that does not compile is left to the JS function, which words the error', () => {
  assert.equal(stdlib.call('grok_parse', 'x', '%{NOPE:x}'), { error: '' });
  assert.match(String(inJs('x', '%{NOPE:x}')), 'could not be found');
});

test.run();
