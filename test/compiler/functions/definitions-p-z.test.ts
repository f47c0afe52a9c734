// Type rules of the function definitions from parse_* to zip, and of the metrics/enrichment functions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupFunction } from '../../../compiler/functions/index.js';
import { def, arg, str, int, float, regex, call, fallible, returns } from './calls.js';
import type { Constant } from '../../../compiler/functions/define.js';
import {
  ANY,
  BOOLEAN,
  BYTES,
  FLOAT,
  INTEGER,
  NULL,
  REGEX,
  TIMESTAMP,
  arrayOf,
  describe,
  exactArray,
  exactObject,
  fieldOf,
  indexOf,
  objectOf,
  union,
  type Kind,
} from '../../../compiler/types/kind.js';

const fieldNames = (k: Kind): string[] => [...k.object!.known.keys()].sort();

test('coercions fail only for kinds they cannot always convert', () => {
  const cases: Array<[string, Kind, boolean]> = [
    ['to_int', union(INTEGER, FLOAT, BOOLEAN, NULL, TIMESTAMP), false],
    ['to_int', BYTES, true],
    ['to_float', TIMESTAMP, false],
    ['to_float', objectOf(ANY), true],
    ['to_bool', union(INTEGER, FLOAT, BOOLEAN, NULL), false],
    ['to_bool', TIMESTAMP, true],
    ['to_string', union(BYTES, INTEGER, FLOAT, BOOLEAN, NULL, TIMESTAMP), false],
    ['to_string', REGEX, true],
    ['to_string', ANY, true],
  ];
  for (const [name, kind, expected] of cases) {
    assert.is(fallible(name, call({ value: arg(kind) })), expected, `${name}(${describe(kind)})`);
  }
  assert.ok(fallible('to_regex', call({ value: str('^foo$') })));
});

test('string and timestamp assert their kind', () => {
  assert.not.ok(fallible('string', call({ value: arg(BYTES) })));
  assert.ok(fallible('string', call({ value: arg(union(BYTES, NULL)) })));
  assert.is(describe(returns('string', call({ value: arg(ANY) }))), 'string');
  assert.not.ok(fallible('timestamp', call({ value: arg(TIMESTAMP) })));
  assert.ok(fallible('timestamp', call({ value: arg(BOOLEAN) })));
});

test('random functions are safe with valid literal arguments and reject invalid ones at compile time', () => {
  assert.not.ok(fallible('random_bytes', call({ length: int(16n) })));
  assert.ok(fallible('random_bytes', call({ length: arg(INTEGER) })));
  assert.equal(def('random_bytes').validate!(call({ length: int(-1n) }))?.labels, [
    'invalid argument "length"',
    'received: -1',
    'error: Length cannot be negative',
  ]);
  assert.equal(def('random_bytes').validate!(call({ length: int(100000n) }))?.labels, [
    'invalid argument "length"',
    'received: 100000',
    'error: Length is too large. Maximum is 64k',
  ]);
  assert.not.ok(fallible('random_int', call({ min: int(0n), max: int(10n) })));
  assert.ok(fallible('random_int', call({ min: arg(INTEGER), max: int(10n) })));
  assert.equal(def('random_int').validate!(call({ min: int(10n), max: int(0n) }))?.labels, [
    'invalid argument "max"',
    'received: 0',
    'error: max must be greater than min',
  ]);
  assert.not.ok(fallible('random_float', call({ min: float(0), max: float(10) })));
  assert.is(def('random_float').validate!(call({ min: float(0), max: float(10) })), undefined);
  assert.equal(def('random_float').validate!(call({ min: float(1), max: float(0) }))?.labels, [
    'invalid argument "max"',
    'received: 0',
    'error: max must be greater than min',
  ]);
});

test('xxhash is safe with a known literal variant and types its result by variant', () => {
  assert.not.ok(fallible('xxhash', call({ value: arg(BYTES) })));
  assert.not.ok(fallible('xxhash', call({ value: arg(BYTES), variant: str('XXH3-128') })));
  assert.ok(fallible('xxhash', call({ value: arg(BYTES), variant: str('MD5') })));
  assert.ok(fallible('xxhash', call({ value: arg(BYTES), variant: arg(BYTES) })));
  assert.is(describe(returns('xxhash', call({ value: arg(BYTES) }))), 'integer');
  assert.is(describe(returns('xxhash', call({ value: arg(BYTES), variant: str('XXH3-128') }))), 'string');
  assert.is(describe(returns('xxhash', call({ value: arg(BYTES), variant: arg(BYTES) }))), 'string or integer');
});

test('zip with one argument needs an array of arrays', () => {
  assert.not.ok(fallible('zip', call({ array_0: arg(arrayOf(INTEGER)), array_1: arg(arrayOf(INTEGER)) })));
  assert.not.ok(fallible('zip', call({ array_0: arg(exactArray([arrayOf(INTEGER), exactArray([BYTES])])) })));
  assert.ok(fallible('zip', call({ array_0: arg(exactArray([INTEGER, INTEGER])) })));
  assert.ok(fallible('zip', call({ array_0: arg(arrayOf(ANY)) })));
});

test('array functions keep what is known of the items', () => {
  const pushed = returns('push', call({ value: arg(exactArray([INTEGER])), item: arg(FLOAT) }));
  assert.is(describe(indexOf(pushed, 1)), 'float');
  assert.is(pushed.array!.unknown, undefined);
  const popped = returns('pop', call({ value: arg(exactArray([INTEGER, BYTES])) }));
  assert.equal([...popped.array!.known.values()].map(describe), ['integer']);
  assert.is(popped.array!.unknown, undefined);
  const uncertain = union(exactArray([INTEGER]), exactArray([INTEGER, BYTES]));
  assert.is(describe(indexOf(returns('pop', call({ value: arg(uncertain) })), 0)), 'string, integer or null');
  assert.is(describe(returns('slice', call({ value: arg(BYTES), start: int(1n) }))), 'string');
  // A slice of a known array may be shorter: its items keep their kinds but no longer their positions.
  const sliced = returns('slice', call({ value: arg(exactArray([INTEGER, BYTES])), start: int(1n) }));
  assert.is(sliced.array!.known.size, 0);
  assert.is(describe(sliced.array!.unknown!), 'string or integer');
  assert.is(describe(returns('values', call({ value: arg(exactObject({ a: BOOLEAN })) })).array!.unknown!), 'boolean');
  const entries = returns('to_entries', call({ value: arg(arrayOf(BYTES)) }));
  assert.is(describe(fieldOf(indexOf(entries, 0), 'key')), 'integer');
});

test('parse_regex knows the groups of a literal pattern', () => {
  const match = returns('parse_regex', call({ value: arg(BYTES), pattern: regex('^(?P<host>\\S+) - (\\w+)') }));
  assert.equal(fieldNames(match), ['0', '1', '2', 'host']);
  assert.is(describe(fieldOf(match, 'host')), 'string');
  assert.is(describe(fieldOf(match, '2')), 'string or null');
  // parse_regex_all's items are the match object or null (VRL's type definition).
  const all = returns('parse_regex_all', call({ value: arg(BYTES), pattern: regex('(?P<fruit>\\w+)') }));
  assert.equal(fieldNames(all.array!.unknown!), ['0', '1', 'fruit']);
  assert.is(describe(all.array!.unknown!), 'null or object');
  assert.is(all.array!.known.size, 0);
  // A pattern known only at run time: any field, a string or null.
  for (const name of ['parse_regex', 'parse_regex_all']) {
    const dynamic = returns(name, call({ value: arg(BYTES), pattern: arg(REGEX) }));
    const object = name === 'parse_regex' ? dynamic : dynamic.array!.unknown!;
    assert.equal(fieldNames(object), [], name);
    assert.is(describe(object.object!.unknown!), 'string or null', name);
  }
});

test('log parsers pick their fields from the literal format or mode', () => {
  const websrv1 = (format: string) =>
    fieldNames(returns('parse_websrv1_log', call({ value: arg(BYTES), format: str(format) })));
  assert.ok(websrv1('combined').includes('referrer'));
  assert.not.ok(websrv1('common').includes('referrer'));
  assert.equal(websrv1('error'), ['client', 'message', 'module', 'pid', 'port', 'severity', 'thread', 'timestamp']);
  const websrv2 = (format: string) =>
    fieldNames(returns('parse_websrv2_log', call({ value: arg(BYTES), format: str(format) })));
  assert.ok(websrv2('ingress_upstreaminfo').includes('upstream_status'));
  assert.ok(websrv2('main').includes('http_x_forwarded_for'));
  assert.ok(websrv2('error').includes('cid'));
  const agent = (mode?: string) =>
    returns('parse_user_agent', call(mode ? { value: arg(BYTES), mode: str(mode) } : { value: arg(BYTES) }));
  assert.equal(fieldNames(fieldOf(agent(), 'device')), ['category']);
  assert.equal(fieldNames(fieldOf(agent('enriched'), 'device')), ['brand', 'category', 'family', 'model']);
});

test('syslog results allow structured data fields beside the header fields', () => {
  const parsed = returns('parse_syslog');
  assert.is(describe(fieldOf(parsed, 'message')), 'string');
  assert.is(describe(fieldOf(parsed, 'exampleSDID@32473')), 'object');
  assert.is(describe(fieldOf(fieldOf(parsed, 'exampleSDID@32473'), 'iut')), 'string');
});

test('metric and enrichment functions answer to their upstream names and need a literal table', () => {
  for (const [seed, upstream] of [
    ['aggregate_svc_metrics', 'aggregate_vector_metrics'],
    ['find_svc_metrics', 'find_vector_metrics'],
    ['get_svc_metric', 'get_vector_metric'],
  ]) {
    assert.is(lookupFunction(upstream!), def(seed!));
  }
  assert.is(describe(returns('aggregate_svc_metrics')), 'float or null');
  // A histogram's value is null (as in Vector).
  assert.is(describe(fieldOf(indexOf(returns('find_svc_metrics'), 0), 'value')), 'float or null');
  for (const name of ['find_enrichment_table_records', 'get_enrichment_table_record']) {
    assert.ok(def(name).parameters.find((p) => p.name === 'table')?.literal, name);
    assert.ok(fallible(name, call({})), name);
  }
});

test('redact checks literal filters and redactors', () => {
  const array = (...items: Constant[]) => arg(arrayOf(ANY), { kind: 'array', items });
  const object = (fields: Record<string, Constant>) =>
    arg(objectOf(ANY), { kind: 'object', fields: new Map(Object.entries(fields)) });
  const text = (value: string): Constant => ({ kind: 'string', value });
  const validate = def('redact').validate!;
  const pattern: Constant = { kind: 'regex', pattern: '\\d', flags: '' };
  assert.is(validate(call({ filters: array(pattern, text('us_social_security_number')) })), undefined);
  assert.is(
    validate(call({ filters: array(pattern), redactor: object({ type: text('text'), replacement: text('#') }) })),
    undefined,
  );
  assert.equal(validate(call({ filters: array(text('nope')) }))?.labels[2], 'error: unknown filter name: nope');
  assert.equal(
    validate(call({ filters: array(pattern), redactor: str('md5') }))?.labels[2],
    'error: unknown redactor: md5',
  );
  assert.equal(
    validate(call({ filters: array(pattern), redactor: str('text') }))?.labels[2],
    'error: unknown redactor: text',
  );
});

test.run();
