import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchBuffer } from '../../../host/topology/buffer.js';
import type { EventBatch } from '../../../host/topology/batch.js';

const batch = (count: number, bytes = 10): EventBatch => ({ bytes: new Uint8Array(bytes), count });

test('batches come out in the order they went in, then undefined once closed and drained', async () => {
  const buffer = new BatchBuffer({ maxEvents: 100, whenFull: 'block' });
  const a = batch(1);
  const b = batch(2);
  await buffer.push(a);
  await buffer.push(b);
  buffer.close();
  assert.is(await buffer.pop(), a);
  assert.is(await buffer.pop(), b);
  assert.is(await buffer.pop(), undefined);
});

test('block: a push waits until a pop makes room', async () => {
  const buffer = new BatchBuffer({ maxEvents: 3, whenFull: 'block' });
  await buffer.push(batch(2));
  let pushed = false;
  const waiting = buffer.push(batch(2)).then(() => (pushed = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(pushed, false);
  assert.is(buffer.eventCount, 2);
  await buffer.pop();
  await waiting;
  assert.is(pushed, true);
  assert.is(buffer.eventCount, 2);
});

test('a batch larger than the limit is taken when the buffer is empty', async () => {
  const buffer = new BatchBuffer({ maxEvents: 3, whenFull: 'block' });
  await buffer.push(batch(10));
  assert.is(buffer.eventCount, 10);
});

test('drop_newest: a batch that does not fit is dropped and reported, the push does not wait', async () => {
  const dropped: number[] = [];
  const buffer = new BatchBuffer({ maxEvents: 3, whenFull: 'drop_newest' }, { dropped: (b) => dropped.push(b.count) });
  await buffer.push(batch(2));
  await buffer.push(batch(2));
  await buffer.push(batch(1));
  assert.equal(dropped, [2]);
  assert.is(buffer.eventCount, 3);
});

test('the byte limit counts too, and the observer sees every change', async () => {
  const seen: string[] = [];
  const buffer = new BatchBuffer(
    { maxEvents: 100, maxBytes: 15, whenFull: 'drop_newest' },
    {
      pushed: (b, events, bytes) => seen.push(`+${b.count} → ${events}/${bytes}`),
      popped: (b, events, bytes) => seen.push(`-${b.count} → ${events}/${bytes}`),
      dropped: (b) => seen.push(`dropped ${b.count}`),
    },
  );
  await buffer.push(batch(1, 10));
  await buffer.push(batch(2, 10));
  await buffer.pop();
  assert.equal(seen, ['+1 → 1/10', 'dropped 2', '-1 → 0/0']);
});

test('a consumer waiting on an empty buffer wakes on push and on close', async () => {
  const buffer = new BatchBuffer({ maxEvents: 10, whenFull: 'block' });
  const first = buffer.pop();
  const a = batch(1);
  await buffer.push(a);
  assert.is(await first, a);
  const second = buffer.pop();
  buffer.close();
  assert.is(await second, undefined);
});

test.run();
