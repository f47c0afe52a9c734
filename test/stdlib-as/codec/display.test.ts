import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { DISPLAY_CASES } from '../../support/display-cases.js';
import { display } from '../../../runtime/display.js';
import { Regex, Timestamp, type RemapValue } from '../../../abi/values.js';

const stdlib = new Stdlib();
const wasm = stdlib.exports;

/** Builds a value in wasm memory; unlike `Stdlib.put`, JS numbers always become floats. */
function build(v: RemapValue): number {
  if (typeof v === 'number') return wasm.new_float!(v);
  if (Array.isArray(v)) {
    const a = wasm.new_array!(v.length);
    for (const item of v) wasm.array_push!(a, build(item));
    return a;
  }
  if (
    v !== null &&
    typeof v === 'object' &&
    !(v instanceof Uint8Array || v instanceof Timestamp || v instanceof Regex)
  ) {
    const o = wasm.new_object!(0);
    for (const [key, item] of Object.entries(v)) {
      const bytes = Buffer.from(key);
      const ptr = wasm.alloc!(bytes.length);
      new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
      wasm.object_set!(o, ptr, bytes.length, build(item));
    }
    return o;
  }
  return stdlib.put(v);
}

test('writeDisplay prints values as VRL does (the cases runtime/display.ts shares)', () => {
  for (const [value, expected] of DISPLAY_CASES) {
    const text = stdlib.get(wasm.display_of!(build(value)));
    assert.is(text, expected, `display of ${expected}`);
  }
});

test('floats print their shortest round-trip digits without an exponent', () => {
  const bits = new BigUint64Array(1);
  const float = new Float64Array(bits.buffer);
  let seed = 12345n;
  for (let i = 0; i < 20000; i++) {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    bits[0] = seed;
    const x = float[0]!;
    if (!Number.isFinite(x)) continue;
    const text = stdlib.get(wasm.display_of!(wasm.new_float!(x))) as string;
    // runtime/display.ts takes its digits from V8's shortest round-trip conversion.
    assert.is(text, display(x));
    if (i % 1000 === 0) wasm.reset!();
  }
});

test.run();
