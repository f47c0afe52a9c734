import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { callOnAddresses } from './support/calls.js';

const stdlib = new Stdlib();

test('get, set and remove take paths of fields and indexes', () => {
  assert.equal(stdlib.call('fn_get', { a: [1n, { b: 'x' }] }, ['a', -1, 'b']), { value: 'x' });
  assert.equal(stdlib.call('fn_get', { a: 1n }, []), { value: { a: 1n } });
  assert.equal(stdlib.call('fn_get', { é: 1n }, ['é']), { value: 1n });
  assert.equal(stdlib.call('fn_set', [1n], [-3], 'x'), { value: ['x', null, 1n] });
  assert.equal(stdlib.call('fn_set', {}, ['a', 2], true), { value: { a: [null, null, true] } });
  assert.equal(stdlib.call('fn_set', { a: 1n }, [], 'root'), { value: 'root' });
  assert.equal(stdlib.call('fn_remove', { a: { b: [1n] } }, ['a', 'b', 0], true), { value: {} });
  assert.equal(stdlib.call('fn_remove', { a: { b: [1n] } }, ['a', 'b', 0]), { value: { a: { b: [] } } });
});

test("path segments other than strings and integers fail with VRL's text", () => {
  for (const name of ['fn_get', 'fn_remove']) {
    assert.equal(stdlib.call(name, {}, ['a', 1.5]), {
      error: 'path segment must be either string or integer, not float',
    });
  }
  assert.equal(stdlib.call('fn_set', {}, [null], 1n), {
    error: 'path segment must be either string or integer, not null',
  });
  assert.equal(stdlib.call('fn_get', 'x', []), { error: 'expected array or object, got string' });
});

test('set and remove leave their argument unchanged', () => {
  const set = callOnAddresses(stdlib, 'fn_set', { a: { b: 1n } }, ['a', 'b'], 2n);
  assert.equal(stdlib.get(set.args[0]!), { a: { b: 1n } });
  assert.equal(stdlib.get(set.result), { a: { b: 2n } });
  const removed = callOnAddresses(stdlib, 'fn_remove', { a: { b: 1n } }, ['a', 'b']);
  assert.equal(stdlib.get(removed.args[0]!), { a: { b: 1n } });
});

test('pop, zip, unique, tally and tally_value', () => {
  assert.equal(stdlib.call('fn_pop', []), { value: [] });
  assert.equal(stdlib.call('fn_zip', [], undefined), { value: [] });
  assert.equal(stdlib.call('fn_zip', [[1n], 2n], undefined), { error: 'expected array, got integer' });
  assert.equal(stdlib.call('fn_zip', [1n], 'x'), { error: 'expected array, got string' });
  assert.equal(stdlib.call('fn_unique', [1n, 1.5, 'a', 'a', [1n], [1n], 1.5, null, null, 'é', 'é']), {
    value: [1n, 1.5, 'a', [1n], null, 'é'],
  });
  assert.equal(stdlib.call('fn_tally', ['é', 'é', '']), { value: { é: 2n, '': 1n } });
  assert.equal(stdlib.call('fn_tally', ['a', 1n]), { error: 'all values must be strings, found: Integer(1)' });
  assert.equal(stdlib.call('fn_tally', [['a']]), { error: 'all values must be strings, found: Array([Bytes(b"a")])' });
  assert.equal(stdlib.call('fn_tally_value', [1n, 1.5, 1n], 1n), { value: 2n });
});

test('unique and tally stay linear-ish on large arrays', () => {
  const items = Array.from({ length: 20000 }, (_, i) => `k${i % 1000}`);
  const unique = stdlib.call('fn_unique', items) as { value: string[] };
  assert.is(unique.value.length, 1000);
  const tally = stdlib.call('fn_tally', items) as { value: Record<string, bigint> };
  assert.is(tally.value.k999, 20n);
});

test('object_from_array, from_entries and to_entries', () => {
  assert.equal(stdlib.call('fn_object_from_array', [[], ['a'], ['b', 1n, 2n]], undefined), {
    value: { a: null, b: 1n },
  });
  assert.equal(stdlib.call('fn_object_from_array', [1n], undefined), {
    error: 'object_from_array in single-argument mode must be passed an array of arrays',
  });
  assert.equal(stdlib.call('fn_object_from_array', [1n, 2n], [1n]), { error: 'object keys must be strings' });
  assert.equal(stdlib.call('fn_from_entries', [{ key: 'a', value: 1n }, { key: 0n, value: 2n }, { key: 'c' }, 'x']), {
    value: { a: 1n, 0: 2n, c: null },
  });
  assert.equal(stdlib.call('fn_to_entries', ['x']), { value: [{ key: 0n, value: 'x' }] });
  assert.equal(stdlib.call('fn_to_entries', {}), { value: [] });
});

test('unflatten groups keys by their first part', () => {
  assert.equal(stdlib.call('fn_unflatten', { 'a.b': 1n, 'a-c': 2n, a: 3n, 'a.d.e': 4n }, undefined, undefined), {
    value: { a: { b: 1n, d: { e: 4n } }, 'a-c': 2n },
  });
  assert.equal(stdlib.call('fn_unflatten', { 'x.y': { 'p.q': 1n } }, undefined, false), {
    value: { x: { y: { 'p.q': 1n } } },
  });
  assert.equal(stdlib.call('fn_unflatten', { 'é::ü': 1n }, '::', undefined), { value: { é: { ü: 1n } } });
  assert.equal(stdlib.call('fn_unflatten', { 'a.b': 1n }, '', undefined), { value: { 'a.b': 1n } });
  assert.equal(stdlib.call('fn_unflatten', {}, undefined, undefined), { value: {} });
});

test('tag_types_externally wraps every scalar', () => {
  assert.equal(stdlib.call('fn_tag_types_externally', { a: [true, 1.5, 'x'], b: null }), {
    value: { a: [{ boolean: true }, { float: 1.5 }, { string: 'x' }], b: null },
  });
});

test('encode_key_value and encode_logfmt', () => {
  const event = { b: { c: [1n, 'two words'] }, a: true, z: false, q: 'say "hi"\n' };
  assert.equal(stdlib.call('fn_encode_logfmt', event, undefined), {
    value: 'a b.c.0=1 b.c.1="two words" q="say \\"hi\\"\\\\n"',
  });
  assert.equal(stdlib.call('fn_encode_key_value', event, ['z', 'q', 'missing'], ':', ',', undefined), {
    value: 'z:false,q:"say \\"hi\\"\\\\n",a:true,b.c.0:1,b.c.1:"two words"',
  });
  assert.equal(stdlib.call('fn_encode_key_value', {}, undefined, undefined, undefined, undefined), { value: '' });
  assert.equal(stdlib.call('fn_encode_logfmt', { a: 1n }, ['a', 2n]), {
    error: 'invalid field value type at index 1: expected string, got integer',
  });
  const large = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i % 2 ? 'v w' : BigInt(i)]));
  const text = (stdlib.call('fn_encode_logfmt', large, undefined) as { value: string }).value;
  assert.is(text.split(' ').length, 5000 + 2500);
});

test('encode_logfmt quotes and escapes wherever the special bytes fall in long texts', () => {
  // VRL: quoted when holding `"`, `=` or Unicode whitespace; `\`, `"` and newlines escaped.
  const whitespace = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
  const quotable = (text: string) => {
    const body = text.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
    return /["=]/.test(text) || whitespace.test(text) ? `"${body}"` : body;
  };
  const specials = [
    '"',
    '=',
    '\\',
    '\n',
    '\t',
    '\r',
    '\u0001',
    '\u000e',
    ' ',
    'é',
    '日',
    '\u00a0',
    '\u3000',
    '\u0085',
    '\u2003',
    '\u{1f600}',
  ];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 400; i++) {
    let text = '';
    for (let n = next() % 40; n > 0; n--)
      text += next() % 4 === 0 ? specials[next() % specials.length] : 'abcxyz0189_-.'[next() % 13];
    const key = i % 5 === 0 ? `k${text.slice(0, 3)}` : 'k';
    assert.equal(
      stdlib.call('fn_encode_logfmt', { [key]: text }, undefined),
      { value: `${quotable(key)}=${quotable(text)}` },
      JSON.stringify(text),
    );
  }
});

test('parse_logfmt is parse_key_value with its defaults', () => {
  assert.equal(stdlib.call('fn_parse_logfmt', 'a=1 b="x y" c'), { value: { a: '1', b: 'x y', c: true } });
  assert.equal(
    stdlib.call('fn_parse_logfmt', ''),
    stdlib.call('fn_parse_key_value', '', undefined, undefined, undefined, undefined),
  );
});

test.run();
