import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBatch } from '../../../abi/batch.js';
import { Timestamp } from '../../../abi/values.js';
import { BatchNotifier, type BatchStatus, type EventBatch } from '../../../host/topology/batch.js';
import type { BufferLimits } from '../../../host/topology/buffer.js';
import { DiskBuffer, type DiskBufferObserver, RECORD_HEADER_SIZE } from '../../../host/topology/disk-buffer.js';
import { waitFor } from '../../support/wait-for.js';

const unbounded: BufferLimits = { maxEvents: Number.MAX_SAFE_INTEGER, whenFull: 'block' };

/** A batch whose bytes all hold `fill`, so each one is recognised when read back. */
const batch = (fill: number, count = 3, size = 100): EventBatch => ({ bytes: new Uint8Array(size).fill(fill), count });

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-disk-buffer-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Pops `n` batches and returns the fill byte of each. */
async function popFills(buffer: DiskBuffer, n: number, acknowledge = true): Promise<number[]> {
  const fills: number[] = [];
  for (let i = 0; i < n; i++) {
    const popped = await buffer.pop();
    assert.ok(popped, `batch ${i} of ${n}`);
    fills.push(popped.bytes[0]!);
    if (acknowledge) buffer.acknowledge(popped);
  }
  return fills;
}

const segments = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.dat')).sort();

/** Records problems reported by the buffer. */
function recorder() {
  const corrupted: Array<Parameters<NonNullable<DiskBufferObserver['corrupted']>>[0]> = [];
  const recovered: Array<[number, number]> = [];
  const observer: DiskBufferObserver = {
    corrupted: (problem) => corrupted.push(problem),
    recovered: (events, bytes) => recovered.push([events, bytes]),
  };
  return { corrupted, recovered, observer };
}

test('batches round-trip through segment files, in order, with their count and source id', async () => {
  await withDir(async (dir) => {
    // Ten 120-byte records per 1200-byte segment.
    const buffer = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    for (let i = 0; i < 35; i++) await buffer.push(i === 34 ? { ...batch(i), sourceId: 'in' } : batch(i));
    assert.is(buffer.eventCount, 35 * 3);
    assert.is(buffer.byteSize, 35 * 100);
    assert.equal(
      await segments(dir),
      [0, 1, 2, 3].map((id) => `buffer-data-${id}.dat`),
    );
    assert.is((await stat(join(dir, 'buffer-data-0.dat'))).size, 10 * (RECORD_HEADER_SIZE + 100));
    buffer.close();
    for (let i = 0; i < 35; i++) {
      const popped = (await buffer.pop())!;
      assert.is(popped.count, 3);
      assert.equal(popped.bytes, batch(i).bytes);
      assert.is(popped.sourceId, i === 34 ? 'in' : undefined);
      buffer.acknowledge(popped);
    }
    assert.is(await buffer.pop(), undefined);
    assert.is(buffer.diskByteSize, 0);
    await buffer.shutdown();
    // Wholly acknowledged segments are deleted; the ledger points past the last record.
    assert.equal(await segments(dir), ['buffer-data-3.dat']);
    assert.equal(JSON.parse(await readFile(join(dir, 'ledger.json'), 'utf8')), { segment: 3, offset: 5 * 120 + 2 });
  });
});

test('a restart reads again every batch not acknowledged, and only those', async () => {
  await withDir(async (dir) => {
    const first = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    for (let i = 0; i < 25; i++) await first.push(batch(i));
    // 12 acknowledged, 3 more taken but not acknowledged.
    assert.equal(await popFills(first, 12), [...Array(12).keys()]);
    await popFills(first, 3, false);
    await first.shutdown();
    const { recovered, observer } = recorder();
    const second = await DiskBuffer.open(dir, unbounded, observer, { segmentBytes: 1200 });
    assert.equal(recovered, [[13 * 3, 13 * 100]]);
    assert.is(second.eventCount, 13 * 3);
    assert.equal(
      await popFills(second, 13),
      [...Array(13).keys()].map((i) => i + 12),
    );
    await second.shutdown();
  });
});

test('popQueued takes what is written without waiting (read back after a restart too), then gives undefined', async () => {
  await withDir(async (dir) => {
    const first = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    for (let i = 0; i < 3; i++) await first.push(batch(i));
    const taken = [await first.pop(), await first.popQueued(), await first.popQueued()];
    assert.equal(
      taken.map((b) => b!.bytes[0]),
      [0, 1, 2],
    );
    assert.is(await first.popQueued(), undefined);
    first.acknowledge(taken[0]!);
    await first.push(batch(3));
    await first.shutdown();
    // The two taken and not acknowledged, and the one after them, come again from disk.
    const second = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    const again = [await second.popQueued(), await second.popQueued(), await second.popQueued()];
    assert.equal(
      again.map((b) => b!.bytes[0]),
      [1, 2, 3],
    );
    assert.is(await second.popQueued(), undefined);
    await second.shutdown();
  });
});

test('without a shutdown (kill -9), what was written is there at the next start', async () => {
  await withDir(async (dir) => {
    const killed = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    for (let i = 0; i < 15; i++) await killed.push(batch(i));
    // No ledger yet: everything is read again.
    const { corrupted, observer } = recorder();
    const next = await DiskBuffer.open(dir, unbounded, observer, { segmentBytes: 1200 });
    assert.equal(corrupted, []);
    assert.equal(await popFills(next, 15), [...Array(15).keys()]);
    await next.shutdown();
  });
});

test('a batch with a finalizer is delivered to its source once the buffer has synced it, not when popped', async () => {
  await withDir(async (dir) => {
    const buffer = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    const statuses: BatchStatus[] = [];
    const finalizer = new BatchNotifier((status) => statuses.push(status));
    await buffer.push({ ...batch(1), finalizer });
    const popped = await buffer.pop();
    assert.is(popped?.finalizer, undefined, 'read back from disk: the buffer keeps the source reference');
    assert.equal(statuses, [], 'written, not yet synced');
    await waitFor(
      () => statuses.length > 0,
      () => 'no sync released the finalizer',
    );
    assert.equal(statuses, ['delivered']);
    buffer.acknowledge(popped!);
    await buffer.shutdown();
  });
});

test('a forced shutdown writes the ledger at once: the next start reads only what was not acknowledged', async () => {
  await withDir(async (dir) => {
    const killed = await DiskBuffer.open(dir, unbounded);
    for (let i = 0; i < 5; i++) await killed.push(batch(i));
    await popFills(killed, 3);
    killed.persistNow();
    const next = await DiskBuffer.open(dir, unbounded);
    assert.is(next.eventCount, 2 * 3);
    assert.equal(await popFills(next, 2), [3, 4]);
    await next.shutdown();
  });
});

test('buffer.lock: a directory locked by a running process fails to open, naming the lock file and the PID', async () => {
  await withDir(async (dir) => {
    const lock = join(dir, 'buffer.lock');
    // The test runner that started this process runs, and is not this process.
    await writeFile(lock, `${process.ppid}\n`);
    try {
      await DiskBuffer.open(dir, unbounded);
      assert.unreachable('the open should fail');
    } catch (error) {
      assert.is(
        (error as Error).message,
        `failed to lock ${lock}; is another svc process (PID ${process.ppid}) running and using this buffer?`,
      );
    }
    assert.is(await readFile(lock, 'utf8'), `${process.ppid}\n`, 'the lock is left to its holder');
    assert.equal(await segments(dir), [], 'nothing opened');
  });
});

test('buffer.lock: a lock of a process that is gone, or with this PID (an earlier run), is taken over', async () => {
  await withDir(async (dir) => {
    const lock = join(dir, 'buffer.lock');
    // Above Linux's highest pid_max (2^22): no process has it.
    const gone = 2 ** 22 + 1;
    for (const stale of [`${gone}\n`, `${process.pid}\n`, '']) {
      await writeFile(lock, stale);
      const buffer = await DiskBuffer.open(dir, unbounded);
      assert.is(await readFile(lock, 'utf8'), `${process.pid}\n`, `taken over from ${JSON.stringify(stale)}`);
      await buffer.shutdown();
    }
  });
});

test('buffer.lock: held while open, released by shutdown and by a forced exit; the directory opens again', async () => {
  await withDir(async (dir) => {
    const lock = join(dir, 'buffer.lock');
    const first = await DiskBuffer.open(dir, unbounded);
    await first.push(batch(1));
    assert.is(await readFile(lock, 'utf8'), `${process.pid}\n`);
    await first.shutdown();
    assert.not.ok(existsSync(lock), 'released by shutdown');
    const second = await DiskBuffer.open(dir, unbounded);
    assert.ok(existsSync(lock));
    assert.equal(await popFills(second, 1, false), [1]);
    second.persistNow();
    assert.not.ok(existsSync(lock), 'released by persistNow');
    const third = await DiskBuffer.open(dir, unbounded);
    assert.equal(await popFills(third, 1), [1]);
    await third.shutdown();
    assert.not.ok(existsSync(lock));
  });
});

test('a torn tail is cut off and counted; the records before it are read, new ones follow them', async () => {
  await withDir(async (dir) => {
    const first = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    for (let i = 0; i < 5; i++) await first.push(batch(i, 4));
    await first.shutdown();
    const segment = join(dir, 'buffer-data-0.dat');
    await truncate(segment, 5 * 120 - 30);
    const { corrupted, observer } = recorder();
    const second = await DiskBuffer.open(dir, unbounded, observer, { segmentBytes: 1200 });
    assert.equal(corrupted, [{ code: 'partial_write', file: segment, offset: 4 * 120, bytes: 90, events: 4 }]);
    assert.is((await stat(segment)).size, 4 * 120);
    assert.is(second.eventCount, 16);
    await second.push(batch(9, 4));
    assert.equal(await popFills(second, 5), [0, 1, 2, 3, 9]);
    await second.shutdown();
  });
});

test('a torn header is cut off too', async () => {
  await withDir(async (dir) => {
    const first = await DiskBuffer.open(dir, unbounded);
    for (let i = 0; i < 2; i++) await first.push(batch(i));
    await first.shutdown();
    await truncate(join(dir, 'buffer-data-0.dat'), 120 + 7);
    const { corrupted, observer } = recorder();
    const second = await DiskBuffer.open(dir, unbounded, observer);
    assert.equal(
      corrupted.map(({ code, bytes, events }) => [code, bytes, events]),
      [['partial_write', 7, 0]],
    );
    assert.equal(await popFills(second, 1), [0]);
    await second.shutdown();
  });
});

test('a flipped bit in a payload fails the checksum: the segment is read up to it, the next one whole', async () => {
  await withDir(async (dir) => {
    const first = await DiskBuffer.open(dir, unbounded, {}, { segmentBytes: 1200 });
    for (let i = 0; i < 15; i++) await first.push(batch(i));
    await first.shutdown();
    const segment = join(dir, 'buffer-data-0.dat');
    const bytes = await readFile(segment);
    bytes[3 * 120 + RECORD_HEADER_SIZE + 50]! ^= 0x10;
    await writeFile(segment, bytes);
    const { corrupted, observer } = recorder();
    const second = await DiskBuffer.open(dir, unbounded, observer, { segmentBytes: 1200 });
    assert.equal(corrupted, [{ code: 'checksum_mismatch', file: segment, offset: 360, bytes: 7 * 120, events: 3 }]);
    assert.equal(await popFills(second, 8), [0, 1, 2, 10, 11, 12, 13, 14]);
    await second.shutdown();
  });
});

test('a record changed on disk after it was checked is skipped and counted when read', async () => {
  await withDir(async (dir) => {
    const { corrupted, observer } = recorder();
    // Nothing kept in memory: every record is read back from the file.
    const buffer = await DiskBuffer.open(dir, unbounded, observer, { keptBytes: 0 });
    for (let i = 0; i < 3; i++) await buffer.push(batch(i));
    const segment = join(dir, 'buffer-data-0.dat');
    const bytes = await readFile(segment);
    bytes[120 + RECORD_HEADER_SIZE]! ^= 1;
    await writeFile(segment, bytes);
    assert.equal(await popFills(buffer, 2), [0, 2]);
    assert.equal(corrupted, [{ code: 'checksum_mismatch', file: segment, offset: 120, bytes: 120, events: 3 }]);
    assert.is(buffer.diskByteSize, 0);
    await buffer.shutdown();
  });
});

test('max_size bounds the bytes not acknowledged: drop_newest drops, block waits for an acknowledgement', async () => {
  await withDir(async (dir) => {
    const dropped: EventBatch[] = [];
    const dropping = await DiskBuffer.open(
      join(dir, 'drop'),
      { ...unbounded, maxBytes: 250, whenFull: 'drop_newest' },
      { dropped: (batch) => dropped.push(batch) },
    );
    for (let i = 0; i < 3; i++) await dropping.push(batch(i));
    assert.equal(
      dropped.map((batch) => batch.bytes[0]),
      [2],
    );
    // Taken is not enough: the bytes are freed once acknowledged.
    const taken = (await dropping.pop())!;
    await dropping.push(batch(3));
    assert.is(dropped.length, 2);
    dropping.acknowledge(taken);
    await dropping.push(batch(4));
    assert.is(dropped.length, 2);
    await dropping.shutdown();

    const blocking = await DiskBuffer.open(join(dir, 'block'), { ...unbounded, maxBytes: 250 });
    await blocking.push(batch(0));
    await blocking.push(batch(1));
    let pushed = false;
    const waiting = blocking.push(batch(2)).then(() => (pushed = true));
    const first = (await blocking.pop())!;
    await new Promise((resolve) => setImmediate(resolve));
    assert.is(pushed, false);
    blocking.acknowledge(first);
    await waiting;
    assert.equal(await popFills(blocking, 2), [1, 2]);
    await blocking.shutdown();
  });
});

test('a batch larger than max_size is taken when the buffer is empty', async () => {
  await withDir(async (dir) => {
    const buffer = await DiskBuffer.open(dir, { ...unbounded, maxBytes: 50 });
    await buffer.push(batch(1));
    assert.is(buffer.eventCount, 3);
    await buffer.shutdown();
  });
});

test('records kept in memory are popped without reading the file; beyond the limit they are read back', async () => {
  await withDir(async (dir) => {
    const { corrupted, observer } = recorder();
    // Room for two of the 100-byte batches.
    const buffer = await DiskBuffer.open(dir, unbounded, observer, { keptBytes: 200 });
    for (let i = 0; i < 3; i++) await buffer.push(batch(i));
    // Every record spoilt on disk: the two kept in memory still come out whole, the third is read and skipped.
    const segment = join(dir, 'buffer-data-0.dat');
    const bytes = await readFile(segment);
    for (const offset of [0, 120, 240]) bytes[offset + RECORD_HEADER_SIZE]! ^= 1;
    await writeFile(segment, bytes);
    await buffer.push(batch(3));
    assert.equal(await popFills(buffer, 3), [0, 1, 3]);
    assert.equal(
      corrupted.map(({ offset }) => offset),
      [240],
    );
    await buffer.shutdown();
  });
});

/** A version 1 record (before timestamps took chrono's range) as svc wrote it, around an ABI version 5 batch. */
function recordV1(batchHex: string, count: number, sourceId = ''): Buffer {
  const id = Buffer.from(sourceId);
  const batchBytes = Buffer.from(batchHex.replace(/\s+/g, ''), 'hex');
  const head = Buffer.alloc(RECORD_HEADER_SIZE);
  head.writeUInt32LE(0x42445653, 0);
  head.writeUInt32LE(id.length + batchBytes.length, 8);
  head.writeUInt32LE(count, 12);
  head.writeUInt16LE(id.length, 16);
  head.writeUInt8(1, 18);
  head.writeUInt32LE(crc32(batchBytes, crc32(id, crc32(head.subarray(8)))), 4);
  return Buffer.concat([head, id, batchBytes]);
}

test('a version 1 record (timestamps as i64 nanoseconds) is read back in the current layout, unchanged', async () => {
  await withDir(async (dir) => {
    // Two log events: {t: 1600000000.123456789 s, a: [1, -1 ns]} with metadata {}, then {} with metadata {t: 0}.
    const event =
      '09 02000000 2e000000' + // object, 2 entries, 46 bytes
      '01000000 61 08 02000000 12000000 03 0100000000000000 06 ffffffffffffffff' + // a: [1, t(-1 ns)]
      '01000000 74 06 15cdfbdf85573416'; // t: 1600000000123456789 ns
    const first = `00 00 0000 09 00000000 00000000 ${event}`;
    const second = '00 00 0000 09 01000000 0e000000 01000000 74 06 0000000000000000 09 00000000 00000000';
    const length = (record: string) => (record.replace(/\s+/g, '').length / 2).toString(16).padStart(2, '0');
    const batchHex = `53564342 0500 0000 02000000 ${length(first)}000000 ${first} ${length(second)}000000 ${second}`;
    await writeFile(
      join(dir, 'buffer-data-0.dat'),
      Buffer.concat([recordV1(batchHex, 2, 'in'), recordV1('53564342 0400 0000 00000000', 0)]),
    );
    const { corrupted, observer } = recorder();
    const buffer = await DiskBuffer.open(dir, unbounded, observer);
    const popped = (await buffer.pop())!;
    assert.is(popped.sourceId, 'in');
    assert.equal(decodeBatch(popped.bytes).events, [
      {
        kind: 'log',
        metadata: {},
        event: { a: [1n, new Timestamp(-1n)], t: new Timestamp(1_600_000_000_123_456_789n) },
      },
      { kind: 'log', metadata: { t: new Timestamp(0n) }, event: {} },
    ]);
    buffer.acknowledge(popped);
    // A version 1 record whose batch is not of ABI version 5 is not misread.
    assert.equal(
      corrupted.map(({ code, events }) => [code, events]),
      [['incompatible_record_version', 0]],
    );
    await buffer.shutdown();
  });
});

test.run();
