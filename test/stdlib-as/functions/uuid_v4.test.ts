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

test.run();
