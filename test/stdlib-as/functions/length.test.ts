import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('length counts top-level fields, items, and bytes of a string', () => {
  assert.equal(stdlib.call('fn_length', { portland: 'Trail Blazers', seattle: 'Supersonics' }), { value: 2n });
  assert.equal(
    stdlib.call('fn_length', { home: { city: 'Portland', state: 'Oregon' }, name: 'x', mascot: { name: 'y' } }),
    { value: 3n },
  );
  assert.equal(stdlib.call('fn_length', ['Trail Blazers', 'Supersonics', 'Grizzlies']), { value: 3n });
  assert.equal(stdlib.call('fn_length', 'The Planet of the Apes Musical'), { value: 30n });
  assert.equal(stdlib.call('fn_length', 'héllo'), { value: 6n });
  assert.equal(stdlib.call('fn_length', ''), { value: 0n });
});

test("other kinds fail with VRL's type error", () => {
  assert.equal(stdlib.call('fn_length', 1n), { error: 'expected string, array or object, got integer' });
  assert.equal(stdlib.call('fn_length', null), { error: 'expected string, array or object, got null' });
});

test.run();
