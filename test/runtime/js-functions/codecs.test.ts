// The JS-backed functions of the codecs group: compression, charsets, IDNA, MIME, hashes, ciphers, IPCrypt,
// Community ID (their definitions' examples run in test/compiler/functions/examples.test.ts), called directly
// for bad input (VRL's error texts), Unicode, empty and large values, and limits.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { deflateSync, gzipSync } from 'node:zlib';
import { jsContext } from '../../support/js-context.js';
import { JS_FUNCTION_NAMES, loadJsFunctions } from '../../../runtime/js-functions/index.js';

const JS_FUNCTIONS = await loadJsFunctions(JS_FUNCTION_NAMES);
import { CRC_CATALOGUE } from '../../../runtime/js-functions/support/crc.js';
import { sivSeal } from '../../../runtime/js-functions/support/aes-siv.js';
import { zstdCompress } from '../../../runtime/zstd.js';
import { createRequire } from 'node:module';
import { compress as zstdOneShot } from '@bokuweb/zstd-wasm';
import type { RemapValue } from '../../../abi/values.js';

/** Calls a JS function by name: its result, or `error: <message>`. */
function call(name: string, args: RemapValue[], cap?: number): RemapValue {
  try {
    return JS_FUNCTIONS[name]!(args, jsContext('UTC', cap));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const bytes = (value: RemapValue): Buffer => Buffer.from(value as Uint8Array);

test('compression round trips, Unicode, empty and large values', () => {
  const inputs = ['', 'héllo wörld ✓ 😀', 'abc'.repeat(200_000), Buffer.from([0, 255, 128, 7])] as const;
  const pairs = [
    ['encode_gzip', 'decode_gzip'],
    ['encode_zlib', 'decode_zlib'],
    ['encode_zstd', 'decode_zstd'],
    ['encode_snappy', 'decode_snappy'],
    ['encode_lz4', 'decode_lz4'],
  ] as const;
  for (const input of inputs) {
    const original = Buffer.from(input);
    for (const [encode, decode] of pairs) {
      const compressed = call(encode, [original, null]);
      assert.ok(compressed instanceof Uint8Array, `${encode} of ${original.length} bytes`);
      const args: RemapValue[] = decode === 'decode_lz4' ? [compressed, null, true] : [compressed];
      assert.equal(bytes(call(decode, args)), original, `${decode} of ${original.length} bytes`);
    }
    // Without the prepended size, a block decodes into at most buf_size bytes.
    const block = call('encode_lz4', [original, false]);
    assert.equal(bytes(call('decode_lz4', [block, BigInt(original.length), false])), original);
  }
});

test('decompression never passes the cap (bombs fail with a message)', () => {
  const zeros = Buffer.alloc(5_000_000);
  const cap = 1_000_000;
  const tooLarge = (label: string) =>
    `error: unable to decode value with ${label} decoder: decompressed size exceeds the limit of ${cap} bytes`;
  assert.is(call('decode_gzip', [gzipSync(zeros)], cap), tooLarge('Gzip'));
  assert.is(call('decode_zlib', [deflateSync(zeros)], cap), tooLarge('Zlib'));
  assert.is(call('decode_zstd', [zstdCompress(zeros, 3)], cap), tooLarge('Zstd'));
  assert.is(call('decode_snappy', [call('encode_snappy', [zeros])], cap), tooLarge('Snappy'));
  assert.is(call('decode_lz4', [call('encode_lz4', [zeros, true]), null, true], cap), tooLarge('lz4 block'));
  assert.is(call('decode_lz4', [call('encode_lz4', [zeros, false]), 5_000_000n, false], cap), tooLarge('lz4 block'));
  // Within the cap the same data decodes.
  assert.is(bytes(call('decode_gzip', [gzipSync(zeros)], 5_000_000)).length, 5_000_000);
});

test('decode_zstd decodes concatenated frames as one stream, as VRL does (checked against the reference engine)', () => {
  // Frames with a declared content size (one-shot) and without (streamed), and skippable frames.
  const sized = (text: string) => zstdOneShot(Buffer.from(text), 3);
  const skippable = Buffer.from([0x5f, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
  const streamed = zstdCompress(Buffer.from('streamed '), 3);
  assert.is(bytes(call('decode_zstd', [Buffer.concat([sized('hello '), sized('world')])])).toString(), 'hello world');
  assert.is(
    bytes(call('decode_zstd', [Buffer.concat([streamed, sized('hello '), streamed])])).toString(),
    'streamed hello streamed ',
  );
  assert.is(bytes(call('decode_zstd', [Buffer.concat([skippable, sized('hello '), skippable])])).toString(), 'hello ');
  const label = 'error: unable to decode value with Zstd decoder: ';
  assert.is(
    call('decode_zstd', [Buffer.concat([sized('hello '), Buffer.from('xx')])]),
    `${label}Unknown frame descriptor`,
  );
  const second = sized('world');
  assert.is(
    call('decode_zstd', [Buffer.concat([sized('hello '), second.subarray(0, second.length - 2)])]),
    `${label}Src size is incorrect`,
  );
  assert.is(call('decode_zstd', [Buffer.alloc(0)]), `${label}Unknown frame descriptor`);
  // The cap holds for the frames together: each is within it, both are not.
  const half = Buffer.alloc(600_000);
  const twoFrames = Buffer.concat([zstdOneShot(half, 3), zstdCompress(half, 3)]);
  assert.is(
    call('decode_zstd', [twoFrames], 1_000_000),
    `${label}decompressed size exceeds the limit of 1000000 bytes`,
  );
  assert.is(bytes(call('decode_zstd', [twoFrames], 1_200_000)).length, 1_200_000);
});

test("invalid compressed data fails with the decoder's message, never a crash", () => {
  const garbage = Buffer.from('definitely not compressed data');
  assert.is(call('decode_gzip', [garbage]), 'error: unable to decode value with Gzip decoder: invalid gzip header');
  assert.is(call('decode_zlib', [garbage]), 'error: unable to decode value with Zlib decoder: corrupt deflate stream');
  assert.is(
    call('decode_zstd', [garbage]),
    'error: unable to decode value with Zstd decoder: Unknown frame descriptor',
  );
  assert.is(
    call('decode_snappy', [Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])]),
    'error: unable to decode value with Snappy decoder: snappy: corrupt input',
  );
  assert.is(
    call('decode_lz4', [Buffer.from([0x10, 0x61, 0x05, 0x00]), null, false]),
    'error: unable to decode value with lz4 block decoder: the offset to copy is not contained in the decompressed buffer',
  );
  assert.is(
    call('decode_lz4', [Buffer.from([0xf0]), null, false]),
    'error: unable to decode value with lz4 block decoder: expected another byte, found none',
  );
  assert.is(
    call('decode_lz4', [Buffer.from([5, 0, 0, 0, 0x30, 0x61, 0x62, 0x63]), null, true]),
    'error: unable to decode value with lz4 block decoder: the expected decompressed size differs, actual 3, expected 5',
  );
  const good = Buffer.from(
    'BCJNGGBAgiwAAIBUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgMTMgbGF6eSBkb2dzLgAAAAA=',
    'base64',
  );
  const frame = Buffer.from(good);
  frame[6] ^= 1; // the header checksum no longer matches
  assert.is(
    call('decode_lz4', [frame, null, null]),
    'error: unable to decode value with lz4 frame decoder: HeaderChecksumError',
  );
  assert.is(
    call('decode_lz4', [good.subarray(0, 10), null, null]),
    'error: unable to decode value with lz4 frame decoder: failed to fill whole buffer',
  );
  assert.is(call('decode_gzip', [42n]), 'error: expected string, got integer');
  assert.is(call('encode_gzip', ['x', 11n]), 'error: compression level must be <= 10');
});

test('charsets: WHATWG labels, unmappable characters, unknown labels', () => {
  assert.is(call('decode_charset', [Buffer.from([0xe9, 0x80]), 'latin1']), 'é€'); // latin1 is windows-1252
  assert.is(call('decode_charset', [Buffer.from([]), 'utf-8']), '');
  assert.is(call('decode_charset', [Buffer.from('x'), 'no-such-charset']), 'error: Unknown charset: no-such-charset');
  assert.equal(bytes(call('encode_charset', ['a😀?', 'windows-1252'])), Buffer.from('a&#128512;?'));
  assert.equal(bytes(call('encode_charset', ['日本', ' Shift_JIS '])), Buffer.from([0x93, 0xfa, 0x96, 0x7b]));
  assert.is(call('encode_charset', ['ü', 'utf-16le']), 'ü');
  const large = 'ä'.repeat(100_000);
  assert.is(call('decode_charset', [call('encode_charset', [large, 'iso-8859-1']), 'iso-8859-1']), large);
});

test('charsets: ISO-2022-JP as encoding_rs writes it (bytes checked against the reference engine)', () => {
  const iso2022jp = (text: string) => Buffer.from(bytes(call('encode_charset', [text, 'csISO2022JP']))).toString('hex');
  assert.is(iso2022jp('日本'), '1b2442467c4b5c1b2842');
  // Escapes between JIS X 0208 and JIS X 0201 Roman, half-width katakana written full-width, a character
  // ISO-2022-JP lacks as a character reference.
  assert.is(
    Buffer.from(bytes(call('encode_charset', ['日本¥ｱ😀', 'iso-2022-jp']))).toString('base64'),
    'GyRCRnxLXBsoSlwbJEIlIhsoQiYjMTI4NTEyOw==',
  );
  assert.is(call('decode_charset', [Buffer.from('GyRCJDMkcyRLJEEkTxsoQg==', 'base64'), 'iso-2022-jp']), 'こんにちは');
  assert.is(iso2022jp('aあb'), '611b244224221b284262');
  // ¥ and ‾ switch to JIS X 0201 Roman, where other ASCII needs no escape but `~` and `\` do.
  assert.is(iso2022jp('¥a‾~\\\\'), '1b284a5c617e1b28427e5c5c');
  // Half-width katakana (and its sound marks) become full-width; U+2212 is the full-width hyphen-minus.
  assert.is(iso2022jp('ｱｲﾞﾟ｡−'), '1b244225222524212b212c2123215d1b2842');
  // The first of several pointers (U+2235), the IBM rows (U+2170), WHATWG's U+FF5E (not U+301C).
  assert.is(iso2022jp('∵ⅰ～〜'), '1b24422268' + '7c71' + '2141' + '1b2842' + '262331323331363b');
  // Characters it lacks and shift-in are references, written in the Roman state without an escape.
  assert.is(iso2022jp('あ😀'), '1b244224221b2842' + '26233132383531323b');
  assert.is(iso2022jp('¥\u000f¥'), '1b284a5c' + '262336353533333b' + '5c1b2842');
  assert.is(iso2022jp(''), '');
  const text = '日本語のテキスト、ｶﾀｶﾅ and ASCII ¥100 '.repeat(5000);
  assert.is(
    call('decode_charset', [call('encode_charset', [text, 'iso-2022-jp']), 'iso-2022-jp']),
    text.replace(/[ｶﾀﾅ]/g, (c) => c.normalize('NFKC')),
  );
});

test('punycode and MIME encoded-words', () => {
  assert.is(call('encode_punycode', ['', null]), '');
  assert.is(
    call('decode_punycode', ['xn--8hbb.xn--fiba', null]),
    'error: unable to decode punycode: Errors { check_bidi }',
  );
  assert.is(
    call('decode_punycode', ['xn--a-ecp.com', null]),
    'error: unable to decode punycode: Errors { disallowed_character }',
  );
  assert.is(call('encode_punycode', ['München.de', true]), 'xn--mnchen-3ya.de');
  assert.is(call('decode_mime_q', ['=?iso-8859-1?q?caf=E9?= and =?utf-8?B?4pyT?=']), 'café and ✓');
  assert.is(call('decode_mime_q', ['=?utf-8?x?abc?=']), 'error: Invalid encoding: "x"');
  // Not an encoded-word: unchanged, as VRL (checked against the reference engine).
  assert.is(call('decode_mime_q', ['plain text']), 'plain text');
  assert.is(call('decode_mime_q', ['utf-8?b?!!!']), 'utf-8?b?!!!');
});

// Plain ASCII domains skip tr46: what it gives them, with and without its checks, is what they were.
const tr46 = createRequire(import.meta.url)('tr46') as {
  toASCII(domain: string, options: object): string | null;
  toUnicode(domain: string, options: object): { domain: string; error: boolean };
};
test('punycode of plain ASCII domains is what tr46 makes of them', () => {
  const parts = ['a', 'z9', '-', '.', 'xn--', 'x', 'n', 'B', '_', 'é'];
  for (let i = 0; i < 4000; i++) {
    let n = i;
    let domain = '';
    for (let k = 0; k < 6 && n > 0; k++, n = Math.floor(n / parts.length)) domain += parts[n % parts.length];
    for (const validate of [true, false]) {
      const options = validate ? { checkBidi: true, checkJoiners: true } : {};
      const ascii = tr46.toASCII(domain, options);
      const unicode = tr46.toUnicode(domain, options);
      const encoded = call('encode_punycode', [domain, validate]);
      const decoded = call('decode_punycode', [domain, validate]);
      if (ascii !== null) assert.is(encoded, ascii, domain);
      if (!unicode.error) assert.is(decoded, unicode.domain, domain);
    }
  }
});

test('hashes: empty, Unicode and large values; unknown algorithms at run time', () => {
  assert.is(call('md5', ['']), 'd41d8cd98f00b204e9800998ecf8427e');
  assert.is(call('sha1', ['abc']), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.is(call('md5', ['✓ é']), call('md5', [Buffer.from('✓ é')]));
  assert.is(call('sha2', ['', 'SHA-256']), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.is(call('sha3', ['', 'SHA3-256']), 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a');
  assert.is(call('hmac', ['x', 'k', 'MD5']), 'error: Invalid algorithm: MD5');
  assert.is(call('xxhash', ['', 'XXH64']), -1205034819632174695n);
  assert.is(
    call('xxhash', ['foo', 'xxh128']),
    "error: Variant must be either 'XXH32', 'XXH64', 'XXH3-64', or 'XXH3-128'",
  );
  assert.is(call('crc', ['foo', 'CRC_99']), 'error: Invalid CRC algorithm: CRC_99');
  const large = 'a'.repeat(10_000_000);
  assert.is(call('md5', [large]), createHash('md5').update(large).digest('hex'));
  assert.is(typeof call('seahash', [large]), 'bigint');
});

test('every CRC of the catalogue gives its check value for "123456789"', () => {
  for (const [name, params] of CRC_CATALOGUE) assert.is(call('crc', ['123456789', name]), params[6].toString(), name);
  assert.is(call('crc', ['', null]), '0');
});

test('ciphers: every algorithm round-trips; wrong sizes, names and tampering fail', () => {
  const plaintext = Buffer.from('secret ✓ '.repeat(50));
  for (const [name, key, iv] of [
    ['AES-128-CFB', 16, 16],
    ['AES-192-OFB', 24, 16],
    ['AES-256-CTR', 32, 16],
    ['AES-128-CTR-LE', 16, 16],
    ['AES-256-CTR-BE', 32, 16],
    ['AES-256-CBC-PKCS7', 32, 16],
    ['AES-192-CBC-ANSIX923', 24, 16],
    ['AES-128-CBC-ISO7816', 16, 16],
    ['AES-128-CBC-ISO10126', 16, 16],
    ['AES-128-SIV', 32, 16],
    ['AES-256-SIV', 64, 16],
    ['CHACHA20-POLY1305', 32, 12],
    ['XCHACHA20-POLY1305', 32, 24],
    ['XSALSA20-POLY1305', 32, 24],
  ] as const) {
    const [k, v] = [Buffer.alloc(key, 7), Buffer.alloc(iv, 9)];
    for (const input of [plaintext, Buffer.alloc(0)]) {
      const sealed = call('encrypt', [input, name, k, v]);
      assert.ok(sealed instanceof Uint8Array, name);
      assert.equal(bytes(call('decrypt', [sealed, name.toLowerCase(), k, v])), input, name);
    }
  }
  assert.is(call('encrypt', ['x', 'AES-128-CFB', 'short', '0123456789012345']), 'error: key must be 16 bytes');
  assert.is(call('encrypt', ['x', 'AES-128-CFB', '0123456789012345', 'short']), 'error: iv must be 16 bytes');
  assert.is(call('encrypt', ['x', 'ROT13', 'k', 'v']), 'error: Invalid algorithm: ROT13');
  assert.is(call('encrypt', ['x', 'rot13', 'k', 'v']), 'error: Invalid algorithm: ROT13');
  const key = Buffer.alloc(32, 1);
  const sealed = bytes(call('encrypt', ['message', 'AES-128-SIV', key, Buffer.alloc(16)]));
  sealed[sealed.length - 1] ^= 1;
  assert.is(call('decrypt', [sealed, 'AES-128-SIV', key, Buffer.alloc(16)]), 'error: Invalid input');
  assert.is(
    call('decrypt', [Buffer.alloc(15), 'AES-128-CBC-PKCS7', Buffer.alloc(16), Buffer.alloc(16)]),
    'error: Invalid input',
  );
});

test("AES-SIV matches RFC 5297's deterministic example (A.1)", () => {
  const key = Buffer.from('fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff', 'hex');
  const header = Buffer.from('101112131415161718191a1b1c1d1e1f2021222324252627', 'hex');
  const sealed = sivSeal(key, [header], Buffer.from('112233445566778899aabbccddee', 'hex'));
  assert.is(sealed.toString('hex'), '85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c');
});

test('IPCrypt: round trips in both modes and families; bad addresses, modes and keys', () => {
  const keys = { aes128: 'sixteen byte key', pfx: 'thirty-two bytes key for pfx use' };
  for (const mode of ['aes128', 'pfx'] as const) {
    for (const ip of ['0.0.0.0', '10.1.2.3', '255.255.255.255', '::', '2001:db8::1', 'fe80::1:2']) {
      const encrypted = call('encrypt_ip', [ip, keys[mode], mode]) as string;
      assert.is(call('decrypt_ip', [encrypted, keys[mode], mode]), ip, `${mode} ${ip}`);
    }
  }
  // The ciphers kept per key carry nothing from one call to the next: the same text again after other keys'.
  const other = 'another 32-byte key for pfx mode';
  for (const mode of ['aes128', 'pfx'] as const) {
    const first = call('encrypt_ip', ['2001:db8::7', keys[mode], mode]);
    call('encrypt_ip', ['2001:db8::8', mode === 'pfx' ? other : 'sixteen-byte-key', mode]);
    call('decrypt_ip', [first, keys[mode], mode]);
    assert.is(call('encrypt_ip', ['2001:db8::7', keys[mode], mode]), first, mode);
  }
  // pfx keeps shared prefixes shared.
  const [a, b] = ['10.1.2.3', '10.1.2.200'].map((ip) => call('encrypt_ip', [ip, keys.pfx, 'pfx']) as string);
  assert.is(a!.split('.').slice(0, 3).join('.'), b!.split('.').slice(0, 3).join('.'));
  assert.is(call('encrypt_ip', ['1.2.3', keys.aes128, 'aes128']), 'error: Invalid IP address: 1.2.3');
  assert.is(
    call('encrypt_ip', ['1.2.3.4', keys.aes128, 'des']),
    "error: Invalid mode 'des'. Must be 'aes128' or 'pfx'",
  );
  assert.is(call('encrypt_ip', ['1.2.3.4', 'short', 'aes128']), 'error: aes128 mode requires a 16-byte key');
});

test('Community ID: ordering, one-way ICMP, IPv6, seed and bad input', () => {
  const flow = (
    src: string,
    dst: string,
    proto: bigint,
    sport: bigint | null,
    dport: bigint | null,
    seed: bigint | null = null,
  ) => call('community_id', [src, dst, proto, sport, dport, seed]);
  // The same flow seen from either side has the same ID.
  assert.is(flow('5.6.7.8', '1.2.3.4', 6n, 3344n, 1122n), '1:wCb3OG7yAFWelaUydu0D+125CLM=');
  assert.is.not(flow('1.2.3.4', '5.6.7.8', 6n, 1122n, 3344n, 1n), '1:wCb3OG7yAFWelaUydu0D+125CLM=');
  const v6 = flow('2001:db8::1', '2001:db8::2', 17n, 53n, 1000n);
  assert.is(flow('2001:db8::2', '2001:db8::1', 17n, 1000n, 53n), v6);
  assert.is(flow('1.2.3.4', 'nope', 6n, 1n, 2n), 'error: unable to parse IP address: invalid IP address syntax');
  assert.is(flow('1.2.3.4', '5.6.7.8', 6n, 70000n, 2n), 'error: source port must be between 0 and 65535');
});

test.run();
