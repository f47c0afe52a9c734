// Loading binaryen: the build's split (scripts/split-binaryen.mjs) when it is there, the package as shipped
// when it is not; both must build and emit a module.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { importBinaryen, loadBinaryen, type Binaryen } from '../../../compiler/codegen/binaryen.js';

const splitDirectory = new URL('../../../binaryen/', import.meta.url);

/** Builds `(func (export "add") (param i32 i32) (result i32))` and runs it. */
function add(b: Binaryen, x: number, y: number): number {
  const m = new b.Module();
  try {
    m.addFunction(
      'add',
      b.createType([b.i32, b.i32]),
      b.i32,
      [],
      m.i32.add(m.local.get(0, b.i32), m.local.get(1, b.i32)),
    );
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

/**
 * A child with V8's test natives: after binaryen ran at the baseline tier, a hot wasm function (like a
 * program's) must still reach the optimizing tier.
 */
const AFTER_BASELINE = `
const { runBinaryenAtBaselineTier, withBaselineWasm } = await import(process.argv[1]);
runBinaryenAtBaselineTier();
await withBaselineWasm(() => {});
const add1 = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 9, 1, 7, 0, 32, 0, 65, 1, 106, 11]);
const f = new WebAssembly.Instance(new WebAssembly.Module(add1)).exports.f;
let x = 0;
for (let i = 0; i < 3e6; i++) x = f(x);
// Optimization runs on a background thread.
for (let wait = 0; wait < 100 && !%IsTurboFanFunction(f); wait++) await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(x + ' ' + %IsTurboFanFunction(f));
`;

test('after binaryen ran at the baseline tier, other wasm is optimized again', () => {
  const binaryenModule = new URL('../../../compiler/codegen/binaryen.js', import.meta.url).href;
  const child = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--input-type=module', '-e', AFTER_BASELINE, binaryenModule],
    { encoding: 'utf8', timeout: 20_000 },
  );
  assert.is(child.stderr, '');
  assert.is(child.stdout.trim(), '3000000 true');
});

test.run();
