// Regexes made at run time (to_regex, a regex in an event or a variable) match in wasm like literal ones:
// their program comes from the host (svc_js.regex), once per pattern.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile } from '../../runtime/index.js';
import { Regex } from '../../abi/values.js';

test('to_regex, then every regex function of the module on it', async () => {
  const program = await compile(`
    re = to_regex!(.p)
    m = string!(.m)
    .parsed = parse_regex(m, re) ?? null
    .matched = match(m, re)
    .at = find(m, re)
    .pieces = split(m, re)
    .replaced = replace(m, re, "<$$$1>")
    .with = replace_with(m, re) -> |match| { upcase(match.string) }
  `);
  const { event } = program.run({ p: '(?P<d>\\d+)', m: 'a1é22b' }) as { event: Record<string, unknown> };
  assert.equal(event.parsed, { d: '1' });
  assert.equal([event.matched, event.at], [true, 1n]);
  assert.equal(event.pieces, ['a', 'é', 'b']);
  assert.equal([event.replaced, event.with], ['a<$1>é<$22>b', 'a1é22b']);
  // Another pattern in the next event: its own program.
  const other = program.run({ p: '(?i)É', m: 'aé' }) as { event: Record<string, unknown> };
  assert.equal([other.event.matched, other.event.at, other.event.pieces], [true, 1n, ['a', '']]);
});

test("an invalid pattern at run time fails with the engine's message", async () => {
  const program = await compile('to_regex(.p) ?? "failed: " + to_string(.p) ?? ""');
  const { result } = program.run({ p: 'a(' });
  assert.is(result, 'failed: a(');
  const error = await compile('to_regex!(.p)');
  assert.throws(() => error.run({ p: 'a(' }), /could not create regex: regex parse error: unterminated group/);
});

test('a regex value from the event and from a variable matches in wasm', async () => {
  const program = await compile('match(.m, .r) ?? false');
  assert.equal(
    [program.run({ m: 'xyz', r: new Regex('y+') }).result, program.run({ m: 'x', r: new Regex('y') }).result],
    [true, false],
  );
});

test.run();
