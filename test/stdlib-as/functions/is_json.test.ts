import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('a string holding one JSON document is JSON', () => {
  for (const text of ['{}', '"test"', ' [1, {"a": null}] ', '1.5', '-3', 'true', 'null']) {
    assert.equal(stdlib.call('fn_is_json', text), { value: true }, text);
  }
  for (const text of ['{', '', '{} x', 'nul', "{'a': 1}", '[1,]']) {
    assert.equal(stdlib.call('fn_is_json', text), { value: false }, text);
  }
});

test('a variant also requires that kind of document', () => {
  const cases: Array<[string, string]> = [
    ['{}', 'object'],
    ['[]', 'array'],
    ['"x"', 'string'],
    ['1', 'number'],
    ['1.5', 'number'],
    ['false', 'bool'],
    ['null', 'null'],
  ];
  for (const [text, variant] of cases) {
    assert.equal(stdlib.call('fn_is_json', text, variant), { value: true }, `${text} ${variant}`);
    assert.equal(stdlib.call('fn_is_json', text, variant === 'array' ? 'object' : 'array'), { value: false }, text);
  }
  assert.equal(stdlib.call('fn_is_json', '{', 'object'), { value: false });
});

test("a non-string fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_is_json', 1n), { error: 'expected string, got integer' });
});

test.run();
