// Loading binaryen: the build's split (scripts/split-binaryen.mjs) when it is there, the package as shipped
// when it is not; both must build and emit a module.
import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { importBinaryen, loadBinaryen, type Binaryen } from '../../../compiler/codegen/binaryen.js';

const splitDirectory = new URL('../../../binaryen/', import.meta.url);

/** Builds `(func (export "add") (param i32 i32) (result i32))` and runs it. */
function add(b: Binaryen, x: number, y: number): number {
  const m = new b.Module();
  try {
    m.addFunction('add', b.createType([b.i32, b.i32]), b.i32, [], m.i32.add(m.local.get(0, b.i32), m.local.get(1, b.i32)));
    m.addFunctionExport('add', 'add');
    assert.ok(m.validate());
    const instance = new WebAssembly.Instance(new WebAssembly.Module(m.emitBinary()));
    return (instance.exports.add as (a: number, b: number) => number)(x, y);
  } finally {
    m.dispose();
  }
}

test('the build writes the split and the compiler loads it', async () => {
  assert.ok(existsSync(new URL('index.js', splitDirectory)));
  assert.ok(existsSync(new URL('binaryen.wasm', splitDirectory)));
  const split = await loadBinaryen();
  assert.is(split, await importBinaryen(splitDirectory));
  assert.is(split, (await import(new URL('index.js', splitDirectory).href)).default);
  assert.is(add(split, 2, 3), 5);
});

test('without the split, the package as shipped', async () => {
  const shipped = await importBinaryen(new URL('./no-such-split/', import.meta.url));
  assert.is(shipped, (await import('binaryen')).default);
  assert.is.not(shipped, await loadBinaryen());
  assert.is(add(shipped, 40, 2), 42);
});

test.run();
