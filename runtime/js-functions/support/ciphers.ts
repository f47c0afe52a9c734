// The symmetric ciphers of VRL's encrypt/decrypt by name: key and IV sizes, and how each seals and opens.
// AES block modes come from node:crypto (CTR with a 64-bit counter, as the `ctr` crate's Ctr64LE/Ctr64BE,
// is built on ECB; the padding schemes are applied here), AES-SIV from ../aes-siv.ts, and the
// ChaCha20/XChaCha20/XSalsa20-Poly1305 AEADs from @noble/ciphers.

import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';
import { chacha20poly1305, xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { sivOpen, sivSeal } from './aes-siv.js';

export interface Cipher {
  keySize: number;
  ivSize: number;
  encrypt(plaintext: Uint8Array, key: Uint8Array, iv: Uint8Array): Uint8Array;
  /** Throws when the ciphertext does not decrypt (bad padding, failed authentication). */
  decrypt(ciphertext: Uint8Array, key: Uint8Array, iv: Uint8Array): Uint8Array;
}

const BLOCK = 16;
const INVALID = 'Invalid input';

function nodeStream(mode: 'cfb' | 'ofb', keySize: number): Cipher {
  const name = `aes-${keySize * 8}-${mode}`;
  return {
    keySize,
    ivSize: BLOCK,
    encrypt(plaintext, key, iv) {
      const cipher = createCipheriv(name, key, iv);
      return Buffer.concat([cipher.update(plaintext), cipher.final()]);
    },
    decrypt(ciphertext, key, iv) {
      const decipher = createDecipheriv(name, key, iv);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    },
  };
}

/** CTR with a 64-bit counter in the IV's first 8 bytes little-endian (`le`) or last 8 bytes big-endian. */
function ctr64(keySize: number, le: boolean): Cipher {
  const run = (data: Uint8Array, key: Uint8Array, iv: Uint8Array) => {
    const blocks = Math.ceil(data.length / BLOCK);
    const counters = Buffer.alloc(blocks * BLOCK);
    const start = Buffer.from(iv);
    let counter = le ? start.readBigUInt64LE(0) : start.readBigUInt64BE(8);
    for (let i = 0; i < blocks; i++, counter = BigInt.asUintN(64, counter + 1n)) {
      start.copy(counters, i * BLOCK);
      if (le) counters.writeBigUInt64LE(counter, i * BLOCK);
      else counters.writeBigUInt64BE(counter, i * BLOCK + 8);
    }
    const ecb = createCipheriv(`aes-${keySize * 8}-ecb`, key, null).setAutoPadding(false);
    const stream = Buffer.concat([ecb.update(counters), ecb.final()]);
    const out = Buffer.from(data);
    for (let i = 0; i < out.length; i++) out[i]! ^= stream[i]!;
    return out;
  };
  return { keySize, ivSize: BLOCK, encrypt: run, decrypt: run };
}

type Padding = 'PKCS7' | 'ANSIX923' | 'ISO7816' | 'ISO10126';

function pad(data: Uint8Array, padding: Padding): Buffer {
  const n = BLOCK - (data.length % BLOCK);
  const tail = Buffer.alloc(n);
  if (padding === 'PKCS7') tail.fill(n);
  else if (padding === 'ISO7816') tail[0] = 0x80;
  else if (padding === 'ISO10126') randomFillSync(tail, 0, n - 1);
  if (padding !== 'ISO7816') tail[n - 1] = n;
  return Buffer.concat([data, tail]);
}

function unpad(data: Buffer, padding: Padding): Buffer {
  if (data.length === 0) throw new Error(INVALID);
  if (padding === 'ISO7816') {
    let end = data.length - 1;
    while (end >= 0 && data[end] === 0) end--;
    if (end < 0 || data.length - end > BLOCK || data[end] !== 0x80) throw new Error(INVALID);
    return data.subarray(0, end);
  }
  const n = data[data.length - 1]!;
  if (n === 0 || n > BLOCK) throw new Error(INVALID);
  const tail = data.subarray(data.length - n, data.length - 1);
  if (padding === 'PKCS7' && tail.some((byte) => byte !== n)) throw new Error(INVALID);
  if (padding === 'ANSIX923' && tail.some((byte) => byte !== 0)) throw new Error(INVALID);
  return data.subarray(0, data.length - n);
}

function cbc(keySize: number, padding: Padding): Cipher {
  const name = `aes-${keySize * 8}-cbc`;
  return {
    keySize,
    ivSize: BLOCK,
    encrypt(plaintext, key, iv) {
      const cipher = createCipheriv(name, key, iv).setAutoPadding(false);
      return Buffer.concat([cipher.update(pad(plaintext, padding)), cipher.final()]);
    },
    decrypt(ciphertext, key, iv) {
      if (ciphertext.length % BLOCK !== 0) throw new Error(INVALID);
      const decipher = createDecipheriv(name, key, iv).setAutoPadding(false);
      return unpad(Buffer.concat([decipher.update(ciphertext), decipher.final()]), padding);
    },
  };
}

/** AES-SIV as the `aes-siv` crate's AEAD API uses it: the headers are empty associated data and the IV (nonce). */
function siv(keySize: number): Cipher {
  const headers = (iv: Uint8Array) => [new Uint8Array(0), iv];
  return {
    keySize,
    ivSize: BLOCK,
    encrypt: (plaintext, key, iv) => sivSeal(key, headers(iv), plaintext),
    decrypt(ciphertext, key, iv) {
      const plaintext = sivOpen(key, headers(iv), ciphertext);
      if (plaintext === undefined) throw new Error(INVALID);
      return plaintext;
    },
  };
}

type Aead = (
  key: Uint8Array,
  nonce: Uint8Array,
) => { encrypt(data: Uint8Array): Uint8Array; decrypt(data: Uint8Array): Uint8Array };

function aead(make: Aead, ivSize: number): Cipher {
  return {
    keySize: 32,
    ivSize,
    encrypt: (plaintext, key, iv) => make(key, iv).encrypt(plaintext),
    decrypt(ciphertext, key, iv) {
      try {
        return make(key, iv).decrypt(ciphertext);
      } catch {
        throw new Error(INVALID);
      }
    },
  };
}

const KEY_SIZES = [32, 24, 16] as const;

function forEachKeySize(entry: (keySize: number, bits: number) => [string, Cipher][]): [string, Cipher][] {
  return KEY_SIZES.flatMap((keySize) => entry(keySize, keySize * 8));
}

const CIPHERS: ReadonlyMap<string, Cipher> = new Map<string, Cipher>([
  ...forEachKeySize((keySize, bits): [string, Cipher][] => [
    [`AES-${bits}-CFB`, nodeStream('cfb', keySize)],
    [`AES-${bits}-OFB`, nodeStream('ofb', keySize)],
    // The unsuffixed CTR names are upstream's older spelling of the little-endian counter.
    [`AES-${bits}-CTR`, ctr64(keySize, true)],
    [`AES-${bits}-CTR-LE`, ctr64(keySize, true)],
    [`AES-${bits}-CTR-BE`, ctr64(keySize, false)],
    [`AES-${bits}-CBC-PKCS7`, cbc(keySize, 'PKCS7')],
    [`AES-${bits}-CBC-ANSIX923`, cbc(keySize, 'ANSIX923')],
    [`AES-${bits}-CBC-ISO7816`, cbc(keySize, 'ISO7816')],
    [`AES-${bits}-CBC-ISO10126`, cbc(keySize, 'ISO10126')],
  ]),
  ['AES-128-SIV', siv(32)],
  ['AES-256-SIV', siv(64)],
  ['CHACHA20-POLY1305', aead(chacha20poly1305, 12)],
  ['XCHACHA20-POLY1305', aead(xchacha20poly1305, 24)],
  ['XSALSA20-POLY1305', aead(xsalsa20poly1305, 24)],
]);

/** The cipher by upstream's name (any case), and the key and IV checked against its sizes. */
export function cipherFor(algorithm: string, key: Uint8Array, iv: Uint8Array): Cipher {
  const name = algorithm.toUpperCase();
  const cipher = CIPHERS.get(name);
  // Upstream upper-cases the name first and reports it that way.
  if (cipher === undefined) throw new Error(`Invalid algorithm: ${name}`);
  if (key.length !== cipher.keySize) throw new Error(`key must be ${cipher.keySize} bytes`);
  if (iv.length !== cipher.ivSize) throw new Error(`iv must be ${cipher.ivSize} bytes`);
  return cipher;
}
