// Randomness from the runtime (`svc_js.random`, docs/abi.md §6) for the `random_*` and `uuid_*` functions.

import { alloc } from '../../value';

// @ts-ignore: decorator
@external("svc_js", "random")
export declare function fillRandom(ptr: usize, len: usize): void;

const WORD = memory.data(8);

/** Random bytes fetched a pool at a time: a call out to the runtime for each value cost more than the value
 * (`uuid_v4`, `random_int` per event). Each byte is handed out once. */
const POOL_BYTES: usize = 512;
const POOL = memory.data(<i32>POOL_BYTES, 8);
let poolAt: usize = POOL_BYTES;

/** Writes `len` random bytes at `ptr`. */
function takeRandom(ptr: usize, len: usize): void {
  if (len > POOL_BYTES) {
    fillRandom(ptr, len);
    return;
  }
  if (len > POOL_BYTES - poolAt) {
    fillRandom(POOL, POOL_BYTES);
    poolAt = 0;
  }
  memory.copy(ptr, POOL + poolAt, len);
  poolAt += len;
}

export function randomU64(): u64 {
  takeRandom(WORD, 8);
  return load<u64>(WORD);
}

/** `len` random bytes in the arena. */
export function randomBlock(len: usize): usize {
  const ptr = alloc(len);
  takeRandom(ptr, len);
  return ptr;
}

/** Uniform in [0, span) for span > 0, by rejection (no modulo bias); span 0 means the whole u64 range. */
export function randomBelow(span: u64): u64 {
  if (span == 0) return randomU64();
  const threshold = (0 - span) % span; // 2^64 mod span: draws below it would favour small results
  let r = randomU64();
  while (r < threshold) r = randomU64();
  return r % span;
}
