import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('uuid_v4 gives lowercase version 4, RFC 4122 variant UUIDs, different each time', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const result = stdlib.call('fn_uuid_v4');
    assert.ok(
      'value' in result && typeof result.value === 'string' && UUID_V4.test(result.value),
      JSON.stringify(result),
    );
    seen.add((result as { value: string }).value);
  }
  assert.is(seen.size, 100);
});

test('randomness comes from a pool refilled from the runtime: across refills no value repeats, none is blank', () => {
  // 512-byte pool: 16 bytes a UUID, so 2,000 of them refill it ~60 times; odd sizes land across refills.
  const uuids = new Set<string>();
  for (let i = 0; i < 2000; i++) uuids.add((stdlib.call('fn_uuid_v4') as { value: string }).value);
  assert.is(uuids.size, 2000);
  const chunks = new Set<string>();
  for (let i = 0; i < 400; i++) {
    // Bytes that happen to be UTF-8 decode as text: the same bytes either way.
    const value = (stdlib.call('fn_random_bytes', BigInt(7 + (i % 13))) as { value: Uint8Array | string }).value;
    const bytes = typeof value === 'string' ? Buffer.from(value) : Buffer.from(value);
    assert.ok(bytes.some((byte) => byte !== 0));
    chunks.add(bytes.toString('hex'));
  }
  assert.is(chunks.size, 400);
  // Larger than the pool: straight from the runtime.
  const large = (stdlib.call('fn_random_bytes', 1000n) as { value: Uint8Array | string }).value;
  assert.is(typeof large === 'string' ? Buffer.byteLength(large) : large.length, 1000);
});

test.run();
