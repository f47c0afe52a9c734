// The JS-backed functions of issue 9's `numstr` group (entropy, redaction, host facts):
// edge cases beyond their upstream examples.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostname } from 'node:os';
import { Regex, type RemapValue } from '../../../abi/values.js';
import type { JsFunction } from '../../../runtime/imports.js';
import { shannon_entropy } from '../../../runtime/js-functions/shannon_entropy.js';
import { redact } from '../../../runtime/js-functions/redact.js';
import { get_timezone_name } from '../../../runtime/js-functions/get_timezone_name.js';
import { get_hostname } from '../../../runtime/js-functions/get_hostname.js';
import { jsContext } from '../../support/js-context.js';
import type { IntegralFloat } from '../../../abi/codec.js';

/** Calls `fn` as the runtime does: absent arguments are null. */
function run(fn: JsFunction, ...args: RemapValue[]): RemapValue {
  try {
    return fn([...args, ...Array<null>(8 - args.length).fill(null)], jsContext());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}
const re = (pattern: string) => new Regex(pattern);
/** Objects built without a prototype, as plain objects (for deep equality). */
const plain = (v: RemapValue): RemapValue =>
  Array.isArray(v)
    ? v.map(plain)
    : v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === null
      ? Object.fromEntries(Object.entries(v).map(([k, item]) => [k, plain(item)]))
      : v;

test('shannon_entropy: bytes, code points, graphemes, empty', () => {
  const entropy = (...args: RemapValue[]) => (run(shannon_entropy, ...args) as unknown as IntegralFloat).value;
  assert.ok(Object.is(entropy(''), 0));
  assert.ok(Object.is(entropy('aaaa'), 0));
  assert.is(entropy('ab'), 1);
  assert.is(entropy('éé'), 1); // two distinct bytes
  assert.is(entropy('éé', 'codepoint'), 0);
  assert.is(entropy('e\u0301x', 'grapheme'), 1);
  assert.is(entropy('abcd'.repeat(100_000)), 2);
  assert.is(run(shannon_entropy, 'a', 'word'), 'error: unknown segmentation: word');
});

test('redact: filters, redactors, nested values, errors', () => {
  assert.is(
    run(redact, 'ssn 123-45-6789 and 666-12-1234', ['us_social_security_number']),
    'ssn [REDACTED] and 666-12-1234',
  );
  assert.is(
    run(redact, 'a1b22', [{ type: 'pattern', patterns: [re('\\d'), 'b'] }]),
    'a[REDACTED][REDACTED][REDACTED][REDACTED]',
  );
  assert.equal(
    plain(run(redact, { a: ['x1', 2n, { b: 'y3' }], c: true }, [re('\\d')], { type: 'text', replacement: '#' })),
    {
      a: ['x#', 2n, { b: 'y#' }],
      c: true,
    },
  );
  assert.is(
    run(redact, 'id 1', [re('\\d')], { type: 'sha3', variant: 'SHA3-256', encoding: 'base16' }),
    'id 67b176705b46206614219f47a05aee7ae6a3edbe850bbbe214c536b989aea4d2',
  );
  assert.is(run(redact, 'é', [re('é')], 'full'), '[REDACTED]');
  assert.is(run(redact, 'x', ['nope']), 'error: unknown filter name: nope');
  assert.is(run(redact, 'x', [re('x')], 'md5'), 'error: unknown redactor: md5');
  assert.is(run(redact, 'x', [re('x')], { type: 'sha2', variant: 'SHA-1' }), 'error: invalid sha2 variant: SHA-1');
  assert.is(run(redact, 1n, [re('x')]), 'error: expected string, object or array, got integer');
});

test('get_timezone_name and get_hostname', () => {
  assert.is(get_timezone_name([], jsContext('Europe/Paris')), 'Europe/Paris');
  assert.is(get_timezone_name([], jsContext('local')), new Intl.DateTimeFormat().resolvedOptions().timeZone);
  assert.is(run(get_hostname), hostname());
});

test.run();
