// SeaHash (the `seahash` crate's `hash`): remap's `seahash` function, and Vector's `sample` on `key_field`
// values (the same value is sampled the same way here as there).

const MASK = (1n << 64n) - 1n;
const PRIME = 0x6eed0e9da4d94a4fn;
const SEEDS = [0x16f11fe89b0d677cn, 0xb480a793d8e6c86cn, 0x6fe2e5aaf078ebc9n, 0x14f994a4c5259381n];

function diffuse(x: bigint): bigint {
  x = (x * PRIME) & MASK;
  x ^= (x >> 32n) >> (x >> 60n);
  return (x * PRIME) & MASK;
}

/** The 64-bit SeaHash of `bytes`. */
export function seahash(bytes: Uint8Array): bigint {
  const state = [...SEEDS];
  for (let at = 0, lane = 0; at < bytes.length; at += 8, lane = (lane + 1) & 3) {
    // Little-endian words, the last one zero-padded.
    let word = 0n;
    for (let i = Math.min(8, bytes.length - at) - 1; i >= 0; i--) word = (word << 8n) | BigInt(bytes[at + i]!);
    state[lane] = diffuse(state[lane]! ^ word);
  }
  return diffuse(state[0]! ^ state[1]! ^ state[2]! ^ state[3]! ^ BigInt(bytes.length));
}
