// Every function's documented examples (the `examples` of its definition), run through the compiler and the
// runtime: the result's display text must equal the expected value's (itself evaluated as a remap literal,
// so `5.0` stays a float and `t'…'` a timestamp), a `raises` example must fail with exactly that text, a
// `type` example must give a value of the expected kind, a `compile` example must compile. Examples that
// name files (protobuf descriptors, JSON schemas, grok aliases, a public suffix list) find upstream's test
// data under test/data/functions, the directory they run in.

import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FUNCTIONS } from '../../../compiler/functions/index.js';
import type { Example, FunctionDef } from '../../../compiler/functions/define.js';
import { compile, display, Timestamp, type RemapValue } from '../../../runtime/index.js';
import { precompile } from '../../support/precompile.js';

const DATA = fileURLToPath(new URL('../../../../test/data/functions/', import.meta.url));
const OPTIONS = { timezone: 'UTC' };

let previousDirectory = '';
test.before(async () => {
  previousDirectory = process.cwd();
  process.chdir(DATA);
  const sources = FUNCTIONS.flatMap((def) => def.examples.map((example) => example.source));
  await precompile(sources, OPTIONS);
});
test.after(() => process.chdir(previousDirectory));

/** The values that literal texts such as `{ "a": 1.0 }` or `t'2021-01-01T00:00:00Z'` stand for, evaluated in
 * one program (a compile per example would double the suite's compiles). */
async function literals(texts: readonly string[]): Promise<RemapValue[]> {
  if (texts.length === 0) return [];
  return (await compile(`[${texts.join(',\n')}]`, OPTIONS)).run({}).result as RemapValue[];
}

/**
 * `actual` with each timestamp that stands where `expected` has the same instant as RFC 3339 text turned into
 * that text: upstream writes its examples' results as JSON, where a timestamp can only be a string.
 */
function asDocumented(actual: RemapValue, expected: RemapValue): RemapValue {
  if (actual instanceof Timestamp && typeof expected === 'string' && String(actual) === expected) return expected;
  if (Array.isArray(actual) && Array.isArray(expected))
    return actual.map((item, i) => asDocumented(item, expected[i] ?? null));
  if (isObject(actual) && isObject(expected)) {
    return Object.fromEntries(
      Object.entries(actual).map(([key, value]) => [key, asDocumented(value, expected[key] ?? null)]),
    );
  }
  return actual;
}

function isObject(value: RemapValue): value is Record<string, RemapValue> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The kind name of a value, as `type` examples compare them. */
function kindOf(value: RemapValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'string';
  return typeof value === 'object' ? value.constructor.name : typeof value;
}

async function check(def: FunctionDef, example: Example, expected: () => Promise<RemapValue>): Promise<void> {
  const program = await compile(example.source, OPTIONS);
  if (example.mode === 'compile') return;
  const run = () => program.run(example.input ?? {});
  if (example.raises !== undefined) {
    assert.throws(
      run,
      (error: Error) => error.message === example.raises,
      `${def.name}: expected the error ${example.raises}`,
    );
    return;
  }
  const { result } = run();
  if (example.returns === undefined) return;
  const want = await expected();
  if (example.mode === 'type') {
    // A timestamp's documented value is an RFC 3339 string.
    const timestampText = typeof want === 'string' && /^\d{4}-\d\d-\d\dT/.test(want);
    assert.is(kindOf(result), timestampText && result instanceof Timestamp ? 'Timestamp' : kindOf(want));
  } else {
    assert.is(display(asDocumented(result, want)), display(want));
  }
}

for (const def of FUNCTIONS) {
  const withResult = def.examples.filter((example) => example.returns !== undefined && example.mode !== 'compile');
  let values: Promise<RemapValue[]> | undefined;
  const expected = (example: Example) => async () =>
    (await (values ??= literals(withResult.map((e) => e.returns!))))[withResult.indexOf(example)]!;
  def.examples.forEach((example) => {
    test(`${def.name}: ${example.title}`, () => check(def, example, expected(example)));
  });
}

test.run();
