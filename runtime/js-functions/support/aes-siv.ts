// AES-SIV (RFC 5297): S2V over the headers and the plaintext with AES-CMAC under the first half of the key,
// AES-CTR under the second; output tag ‖ ciphertext. Node's crypto has AES but neither CMAC nor SIV.

import { createCipheriv } from 'node:crypto';

const BLOCK = 16;
const ZERO_IV = Buffer.alloc(BLOCK);

/** Doubling in GF(2^128) (RFC 5297 §2.3). */
function dbl(block: Buffer): Buffer {
  const out = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) out[i] = ((block[i]! << 1) | (i + 1 < BLOCK ? block[i + 1]! >> 7 : 0)) & 0xff;
  if (block[0]! & 0x80) out[BLOCK - 1]! ^= 0x87;
  return out;
}

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.from(a);
  for (let i = 0; i < b.length; i++) out[i]! ^= b[i]!;
  return out;
}

/** A partial block completed with 10* padding. */
function padded(partial: Buffer): Buffer {
  return Buffer.concat([partial, Buffer.from([0x80]), Buffer.alloc(BLOCK - 1 - partial.length)]);
}

function aesName(key: Uint8Array, mode: string): string {
  return `aes-${key.length * 8}-${mode}`;
}

/** AES-CMAC (RFC 4493). */
function cmac(key: Uint8Array, message: Buffer): Buffer {
  const ecb = (block: Buffer) => {
    const cipher = createCipheriv(aesName(key, 'ecb'), key, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(block), cipher.final()]);
  };
  const k1 = dbl(ecb(Buffer.alloc(BLOCK)));
  const complete = message.length > 0 && message.length % BLOCK === 0;
  const lastStart = complete ? message.length - BLOCK : message.length - (message.length % BLOCK);
  const last = complete ? xor(message.subarray(lastStart), k1) : xor(padded(message.subarray(lastStart)), dbl(k1));
  const cbc = createCipheriv(aesName(key, 'cbc'), key, ZERO_IV).setAutoPadding(false);
  const macced = Buffer.concat([cbc.update(Buffer.concat([message.subarray(0, lastStart), last])), cbc.final()]);
  return macced.subarray(macced.length - BLOCK);
}

function s2v(key: Uint8Array, headers: Buffer[], plaintext: Buffer): Buffer {
  let d = cmac(key, Buffer.alloc(BLOCK));
  for (const header of headers) d = xor(dbl(d), cmac(key, header));
  if (plaintext.length >= BLOCK) {
    const t = Buffer.from(plaintext);
    const tail = xor(t.subarray(t.length - BLOCK), d);
    tail.copy(t, t.length - BLOCK);
    return cmac(key, t);
  }
  return cmac(key, xor(dbl(d), padded(plaintext)));
}

function ctr(key: Uint8Array, v: Buffer, data: Buffer): Buffer {
  const q = Buffer.from(v);
  q[8]! &= 0x7f;
  q[12]! &= 0x7f;
  const cipher = createCipheriv(aesName(key, 'ctr'), key, q);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** SIV-seals `plaintext` under the headers (associated data, then a nonce if any): tag ‖ ciphertext. */
export function sivSeal(key: Uint8Array, headers: readonly Uint8Array[], plaintext: Uint8Array): Buffer {
  const half = key.length / 2;
  const [macKey, ctrKey] = [key.subarray(0, half), key.subarray(half)];
  const v = s2v(
    macKey,
    headers.map((header) => Buffer.from(header)),
    Buffer.from(plaintext),
  );
  return Buffer.concat([v, ctr(ctrKey, v, Buffer.from(plaintext))]);
}

/** The plaintext of `sealed`, or undefined when its tag does not authenticate it. */
export function sivOpen(key: Uint8Array, headers: readonly Uint8Array[], sealed: Uint8Array): Buffer | undefined {
  if (sealed.length < BLOCK) return undefined;
  const half = key.length / 2;
  const [macKey, ctrKey] = [key.subarray(0, half), key.subarray(half)];
  const v = Buffer.from(sealed.subarray(0, BLOCK));
  const plaintext = ctr(ctrKey, v, Buffer.from(sealed.subarray(BLOCK)));
  return s2v(
    macKey,
    headers.map((header) => Buffer.from(header)),
    plaintext,
  ).equals(v)
    ? plaintext
    : undefined;
}
