import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RUNNERS, createRunner } from '../../../../host/components/transforms/runners.js';
import { TRANSFORMS } from '../../../../host/components/transforms/index.js';

test('a worker can create every transform type there is, and no other', async () => {
  assert.equal(Object.keys(RUNNERS).sort(), [...TRANSFORMS.keys()].sort());
  const failure = await createRunner('nope', {}).then(
    () => undefined,
    (error: Error) => error.message,
  );
  assert.is(failure, 'unknown transform type "nope"');
});

test.run();
