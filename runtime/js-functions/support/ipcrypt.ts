// IPCrypt (draft-denis-ipcrypt) for encrypt_ip/decrypt_ip: `aes128` is ipcrypt-deterministic (one AES-128
// block over the address as 16 bytes), `pfx` is ipcrypt-pfx (prefix-preserving: each bit of the address is
// XORed with a bit derived from the bits before it, by two AES-128 keys). IPv4 addresses are IPv4-mapped
// IPv6 inside; a result that is IPv4-mapped is written as IPv4.

import { createCipheriv, createDecipheriv, type Cipher, type Decipher } from 'node:crypto';
import { BoundedCache } from '../../../abi/bounded-cache.js';
import { formatIp, isIpv4Mapped, parseIp, toIpv6Bytes } from './ip-address.js';
import { bytesArg, stringArg } from './args.js';
import type { RemapValue } from '../../../abi/values.js';

const KEY_SIZES: Readonly<Record<string, number>> = { aes128: 16, pfx: 32 };

/** AES-128 in ECB mode without padding, by key and direction: each `update` of whole blocks gives their
 * blocks at once and leaves nothing pending, so one cipher serves every call with its key (making one costs
 * ~1.6 µs, and pfx needs 2 blocks per bit of the address). */
const ciphers = new BoundedCache<string, Cipher | Decipher>(64);

function aes(key: Uint8Array, decrypt: boolean): Cipher | Decipher {
  return ciphers.get(`${decrypt ? 'd' : 'e'}${Buffer.from(key).toString('hex')}`, () =>
    (decrypt ? createDecipheriv : createCipheriv)('aes-128-ecb', key, null).setAutoPadding(false),
  );
}

function aesBlock(key: Uint8Array, block: Uint8Array, decrypt = false): Uint8Array {
  return aes(key, decrypt).update(block);
}

/** Bit `position` counted from the least significant bit of the 128-bit big-endian value. */
function getBit(bytes: Uint8Array, position: number): number {
  return (bytes[15 - (position >> 3)]! >> (position & 7)) & 1;
}

function setBit(bytes: Uint8Array, position: number, bit: number): void {
  const index = 15 - (position >> 3);
  bytes[index] = (bytes[index]! & ~(1 << (position & 7))) | (bit << (position & 7));
}

function shiftLeftOne(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = ((bytes[i]! << 1) | (i < 15 ? bytes[i + 1]! >> 7 : 0)) & 0xff;
  return out;
}

/** ipcrypt-pfx over 16 bytes; decryption feeds the recovered bits into the prefix instead of the input's. */
function pfx(key: Uint8Array, input: Uint8Array, decrypt: boolean): Uint8Array {
  const [k1, k2] = [key.subarray(0, 16), key.subarray(16)];
  const mapped = isIpv4Mapped(input);
  const prefixStart = mapped ? 96 : 0;
  const out = new Uint8Array(16);
  let prefix: Uint8Array = new Uint8Array(16);
  if (mapped) {
    out.set(input.subarray(0, 12));
    // The padded IPv4-mapped prefix: ::ffff: followed by the one-bit marker.
    prefix[3] = 0x01;
    prefix[14] = prefix[15] = 0xff;
  } else {
    prefix[15] = 0x01;
  }
  const [c1, c2] = [aes(k1, false), aes(k2, false)];
  if (!decrypt) {
    // Encryption's prefixes are the input's own bits, known before any block: both keys' blocks in one call each.
    const prefixes = new Uint8Array((128 - prefixStart) * 16);
    for (let length = prefixStart; length < 128; length++) {
      prefixes.set(prefix, (length - prefixStart) * 16);
      prefix = shiftLeftOne(prefix);
      setBit(prefix, 0, getBit(input, 127 - length));
    }
    const [e1, e2] = [c1.update(prefixes), c2.update(prefixes)];
    for (let length = prefixStart; length < 128; length++) {
      const last = (length - prefixStart) * 16 + 15;
      const position = 127 - length;
      setBit(out, position, ((e1[last]! ^ e2[last]!) & 1) ^ getBit(input, position));
    }
    return out;
  }
  for (let length = prefixStart; length < 128; length++) {
    const e1 = c1.update(prefix);
    const e2 = c2.update(prefix);
    const cipherBit = (e1[15]! ^ e2[15]!) & 1;
    const position = 127 - length;
    const outputBit = cipherBit ^ getBit(input, position);
    setBit(out, position, outputBit);
    prefix = shiftLeftOne(prefix);
    setBit(prefix, 0, outputBit);
  }
  return out;
}

/** encrypt_ip/decrypt_ip: the address, key and mode checked, then the mode applied. */
export function ipcrypt(ip: RemapValue, key: RemapValue, mode: RemapValue, decrypt: boolean): string {
  const text = stringArg(ip);
  const address = parseIp(text);
  if (address === undefined) throw new Error(`Invalid IP address: ${text}`);
  const modeName = stringArg(mode);
  const keySize = KEY_SIZES[modeName];
  if (keySize === undefined) throw new Error(`Invalid mode '${modeName}'. Must be 'aes128' or 'pfx'`);
  const keyBytes = bytesArg(key);
  if (keyBytes.length !== keySize) throw new Error(`${modeName} mode requires a ${keySize}-byte key`);
  if (modeName === 'pfx' && Buffer.from(keyBytes.subarray(0, 16)).equals(keyBytes.subarray(16))) {
    throw new Error('pfx mode requires the two halves of the key to differ');
  }
  const bytes = toIpv6Bytes(address);
  const result = modeName === 'aes128' ? aesBlock(keyBytes, bytes, decrypt) : pfx(keyBytes, bytes, decrypt);
  return formatIp(isIpv4Mapped(result) ? result.subarray(12) : result);
}
