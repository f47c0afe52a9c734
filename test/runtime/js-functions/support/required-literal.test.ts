import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { RustRegex } from '../../../../abi/regex.js';
import { requiredLiterals } from '../../../../runtime/js-functions/support/required-literal.js';

test('runs of literal text, groups matched once read in place, punctuation escapes', () => {
  assert.equal(requiredLiterals('abc'), [['abc']]);
  assert.equal(requiredLiterals('(Chrome)/(\\d+)\\.(\\d+)'), [['Chrome/'], ['.']]);
  assert.equal(requiredLiterals('a\\.b\\/c'), [['a.b/c']]);
  assert.equal(requiredLiterals('(?P<name>Ab)(?:cd)e'), [['Abcde']]);
  assert.equal(requiredLiterals('\u{1F600}x'), [['\u{1F600}x']]);
});

test('what may be absent or repeat ends a run; classes and other escapes hold no literal', () => {
  assert.equal(requiredLiterals('ab?cd'), [['cd'], ['a']]);
  assert.equal(requiredLiterals('xy+z'), [['xy'], ['z']]);
  assert.equal(requiredLiterals('ab{0,2}cd'), [['cd'], ['a']]);
  assert.equal(requiredLiterals('(?:ab)*cd'), [['cd']]);
  assert.equal(requiredLiterals('[a-z]+Foo\\dBar'), [['Foo'], ['Bar']]);
  assert.equal(requiredLiterals('a.b'), [['a'], ['b']]);
  assert.equal(requiredLiterals('\\bword\\b'), [['word']]);
  assert.equal(requiredLiterals('ab\\<cd\\>'), [['ab'], ['cd']]);
  assert.equal(requiredLiterals('[]a]x[^]b]y[[:alpha:]]z'), [['x'], ['y'], ['z']]);
});

test('alternatives: one literal of each, or nothing when one requires none', () => {
  assert.equal(requiredLiterals('bot|spider'), [['bot', 'spider']]);
  assert.equal(requiredLiterals('^.{0,100}(bot|Spider|crawl)'), [['bot', 'Spider', 'crawl']]);
  assert.equal(requiredLiterals('(?:Foo|Barr)baz'), [['baz'], ['Foo', 'Barr']]);
  assert.equal(requiredLiterals('x(a|)y'), [['x'], ['y']]);
  assert.equal(requiredLiterals('a|\\d'), []);
});

test('what it does not read gives no literal', () => {
  assert.equal(requiredLiterals('(?i)abc'), []);
  assert.equal(requiredLiterals('a(?x) b'), []);
  assert.equal(requiredLiterals(''), []);
  assert.equal(requiredLiterals('[abc'), []);
  assert.equal(requiredLiterals('a{x}'), []);
});

// Sampled from uap-core's test user agents, with a few of today's and two that fold case (U+212A is a K).
const AGENTS: string[] = JSON.parse(
  readFileSync(new URL('../../../../../test/runtime/js-functions/support/user-agents.json', import.meta.url), 'utf8'),
);

test("uap-core's rules: a rule that matches an agent finds a literal of each of its sets in it", () => {
  const rules = parse(readFileSync(createRequire(import.meta.url).resolve('uap-core/regexes.yaml'), 'utf8')) as Record<
    string,
    Array<{ regex: string; regex_flag?: string }>
  >;
  let checked = 0;
  for (const rule of Object.values(rules).flat()) {
    const insensitive = rule.regex_flag === 'i';
    const sets = requiredLiterals(rule.regex);
    if (sets.length === 0) continue;
    const regex = new RustRegex(`${insensitive ? '(?i)' : ''}${rule.regex}`);
    for (const agent of AGENTS) {
      if (!regex.test(agent)) continue;
      const text = insensitive ? agent.toLowerCase() : agent;
      for (const set of sets) {
        const held = set.some((literal) => text.includes(insensitive ? literal.toLowerCase() : literal));
        // Case folding beyond ASCII (U+212A) is why the rules skip case-insensitive literals for such agents.
        if (!held && /^[\x00-\x7f]*$/.test(agent)) assert.unreachable(`${rule.regex} matches ${agent} without ${set}`);
      }
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} matches checked`);
});

test.run();
