import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { handOver, releaseBytes } from '../../../host/topology/batch.js';

test('releaseBytes frees the bytes a worker handed over, once, and leaves any other batch alone', () => {
  const handed = new Uint8Array(64);
  handOver(handed);
  const other = new Uint8Array(64);
  releaseBytes({ bytes: other, count: 1 });
  assert.is(other.buffer.byteLength, 64);
  releaseBytes({ bytes: handed, count: 1 });
  assert.is(handed.buffer.byteLength, 0, 'detached');
  releaseBytes({ bytes: handed, count: 1 });
});

test.run();
