import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BoundedCache } from '../../abi/bounded-cache.js';

test('a key is computed once, an undefined value too; a full cache starts over; a throw caches nothing', () => {
  const computed: string[] = [];
  const cache = new BoundedCache<string, number | undefined>(2);
  const length = (key: string) => {
    computed.push(key);
    if (key === 'bad') throw new Error('no');
    return key === 'none' ? undefined : key.length;
  };
  assert.is(cache.get('ab', length), 2);
  assert.is(cache.get('none', length), undefined);
  assert.is(cache.get('ab', length), 2);
  assert.is(cache.get('none', length), undefined);
  assert.equal(computed, ['ab', 'none']);
  assert.is(cache.get('xyz', length), 3);
  assert.is(cache.get('ab', length), 2);
  assert.equal(computed, ['ab', 'none', 'xyz', 'ab']);
  assert.throws(() => cache.get('bad', length));
  assert.throws(() => cache.get('bad', length));
  assert.equal(computed.filter((key) => key === 'bad').length, 2);
});

test.run();
