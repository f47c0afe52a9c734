// A sink's disk buffer (`buffer.type: disk`): the batches in front of the sink kept in append-only segment
// files under `<data_dir>/buffer/v2/<sink id>/`, so that what was written survives a crash or `kill -9` and,
// once synced (every 500 ms, or at once for sources waiting to hear of their batches), a power loss. One
// record per batch, written with one `writev`; the reader's position is kept in a ledger, advanced as the sink
// acknowledges batches. docs/disk-buffer.md has the format and the recovery rules.

import { fdatasyncSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { BatchNotifier, EventBatch } from './batch.js';
import type { BufferLimits, BufferObserver } from './buffer.js';
import { upgradeV1Batch } from './disk-buffer-v1.js';

/** "SVDB", little-endian. */
const RECORD_MAGIC = 0x42445653;
/** 2: batches of ABI version 6 (timestamps of 12 bytes); version 1 records are read through upgradeV1Batch. */
const RECORD_VERSION = 2;
/** magic u32, crc32 u32, body length u32, event count u32, source id length u16, version u8, flags u8. */
export const RECORD_HEADER_SIZE = 20;
/** A segment is closed and the next one started once a record would take it past this size (by default). */
const SEGMENT_BYTES = 128 * 1024 * 1024;
/** Vector's disk buffer flush interval. */
const SYNC_INTERVAL_MS = 500;
/** Batches written and not yet popped are also kept in memory up to this many bytes, so a sink that keeps up
 * never reads back what was just written (the file is what survives a crash, and what a sink behind reads). */
const KEPT_BYTES = 16 * 1024 * 1024;

/** A segment's size before the next one starts, and `KEPT_BYTES` (tests make them small). */
interface BufferSizes {
  segmentBytes: number;
  keptBytes: number;
}
/** Recovery reads segments in chunks of this size (or one record, when larger). */
const SCAN_CHUNK_BYTES = 4 * 1024 * 1024;
const LEDGER_FILE = 'ledger.json';
/** Vector's lock file name: one process at a time uses a buffer. */
const LOCK_FILE = 'buffer.lock';
const SEGMENT_NAME = /^buffer-data-(\d+)\.dat$/;

const segmentName = (id: number) => `buffer-data-${id}.dat`;

/** Vector's `error_code` of `buffer_errors_total` for a record that cannot be read. */
type RecordErrorCode = 'partial_write' | 'checksum_mismatch' | 'deser_failed' | 'incompatible_record_version';

/** A record's place and what it holds (kept for every record not yet acknowledged). */
interface RecordInfo {
  segment: number;
  offset: number;
  /** Header and body. */
  size: number;
  count: number;
  /** Bytes of the batch (the body without the source id). */
  batchBytes: number;
  /** The batch itself, while the buffer keeps it in memory too (`keptBytes`): popped without reading it back. */
  kept?: EventBatch;
}

/** A position in the buffer: the segment and the byte offset in it. */
interface Position {
  segment: number;
  offset: number;
}

export interface DiskBufferObserver extends BufferObserver {
  /** Records that cannot be read were skipped: from `offset` of `file`, `bytes` bytes holding (as far as
   * their headers tell) `events` events. */
  corrupted?(problem: { code: RecordErrorCode; file: string; offset: number; bytes: number; events: number }): void;
  /** The buffer opened with `events` events in `bytes` bytes left from the last run. */
  recovered?(events: number, bytes: number): void;
  /** The periodic sync (or the ledger write after it) failed; the next one tries again. */
  syncFailed?(error: unknown): void;
}

type Decoded =
  | { kind: 'record'; size: number; count: number; sourceId: string | undefined; batch: Uint8Array }
  | { kind: 'incomplete' }
  | { kind: 'bad'; code: RecordErrorCode; count: number };

/** The record header and source id written in front of a batch's bytes (which follow unchanged). */
function encodeRecordHead(batch: EventBatch): Buffer {
  const sourceId = batch.sourceId === undefined ? Buffer.alloc(0) : Buffer.from(batch.sourceId);
  const head = Buffer.allocUnsafe(RECORD_HEADER_SIZE + sourceId.length);
  head.writeUInt32LE(RECORD_MAGIC, 0);
  head.writeUInt32LE(sourceId.length + batch.bytes.byteLength, 8);
  head.writeUInt32LE(batch.count, 12);
  head.writeUInt16LE(sourceId.length, 16);
  head.writeUInt8(RECORD_VERSION, 18);
  head.writeUInt8(0, 19);
  sourceId.copy(head, RECORD_HEADER_SIZE);
  // Covers the header after the checksum, the source id and the batch.
  head.writeUInt32LE(crc32(batch.bytes, crc32(head.subarray(8))), 4);
  return head;
}

/** The record at `at` of `bytes`, which hold the file's bytes up to `end` (exclusive) or fewer. */
function decodeRecord(bytes: Buffer, at: number, fileEnd: number, bytesStart: number): Decoded {
  const available = bytes.length - at;
  if (available < RECORD_HEADER_SIZE) {
    return bytesStart + bytes.length >= fileEnd
      ? { kind: 'bad', code: 'partial_write', count: 0 }
      : { kind: 'incomplete' };
  }
  if (bytes.readUInt32LE(at) !== RECORD_MAGIC) return { kind: 'bad', code: 'deser_failed', count: 0 };
  const count = bytes.readUInt32LE(at + 12);
  const version = bytes.readUInt8(at + 18);
  if (version !== RECORD_VERSION && version !== 1) return { kind: 'bad', code: 'incompatible_record_version', count };
  const size = RECORD_HEADER_SIZE + bytes.readUInt32LE(at + 8);
  if (bytesStart + at + size > fileEnd) return { kind: 'bad', code: 'partial_write', count };
  if (available < size) return { kind: 'incomplete' };
  const checksum = crc32(bytes.subarray(at + RECORD_HEADER_SIZE, at + size), crc32(bytes.subarray(at + 8, at + 20)));
  if (checksum !== bytes.readUInt32LE(at + 4)) return { kind: 'bad', code: 'checksum_mismatch', count };
  const idEnd = at + RECORD_HEADER_SIZE + bytes.readUInt16LE(at + 16);
  const sourceId = idEnd > at + RECORD_HEADER_SIZE ? bytes.toString('utf8', at + RECORD_HEADER_SIZE, idEnd) : undefined;
  // A copy that owns its ArrayBuffer, as batches do.
  const stored = new Uint8Array(bytes.buffer.slice(bytes.byteOffset + idEnd, bytes.byteOffset + at + size));
  const batch = version === RECORD_VERSION ? stored : upgradeV1Batch(stored);
  if (batch === undefined) return { kind: 'bad', code: 'incompatible_record_version', count };
  return { kind: 'record', size, count, sourceId, batch };
}

/** The valid records of a segment from `start`, and where they end (a bad record ends them). */
async function scanSegment(
  file: FileHandle,
  segment: number,
  start: number,
  fileEnd: number,
): Promise<{ records: RecordInfo[]; end: number; bad?: { code: RecordErrorCode; count: number } }> {
  const records: RecordInfo[] = [];
  let offset = start;
  let want = SCAN_CHUNK_BYTES;
  while (offset < fileEnd) {
    const chunk = Buffer.allocUnsafe(Math.min(want, fileEnd - offset));
    const { bytesRead } = await file.read(chunk, 0, chunk.length, offset);
    const bytes = chunk.subarray(0, bytesRead);
    let at = 0;
    for (;;) {
      const decoded = decodeRecord(bytes, at, fileEnd, offset);
      if (decoded.kind === 'bad') return { records, end: offset + at, bad: decoded };
      if (decoded.kind === 'incomplete') break;
      records.push({
        segment,
        offset: offset + at,
        size: decoded.size,
        count: decoded.count,
        batchBytes: decoded.batch.byteLength,
      });
      at += decoded.size;
      if (offset + at === fileEnd) return { records, end: fileEnd };
    }
    if (bytesRead === 0) break;
    // A record longer than a chunk is read whole.
    want = at === 0 && bytesRead >= RECORD_HEADER_SIZE ? RECORD_HEADER_SIZE + bytes.readUInt32LE(8) : SCAN_CHUNK_BYTES;
    offset += at;
  }
  return { records, end: offset };
}

/** Whether the process `pid` (from a lock file) runs. This process's own PID counts as gone: its lock was
 * left by an earlier process that had the same PID (PID 1 in a container), as this process opens a
 * directory again only after shutting its buffer down. */
function lockHolderRuns(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates the lock file of `directory` (O_EXCL) holding this process's PID, taking over a stale one;
 * Node has no `flock`. Returns its path. */
async function lockDirectory(directory: string): Promise<string> {
  const path = join(directory, LOCK_FILE);
  for (;;) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: 'wx' });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Unreadable or empty: released meanwhile, or its process died before writing its PID.
    const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
    if (lockHolderRuns(holder))
      throw new Error(`failed to lock ${path}; is another svc process (PID ${holder}) running and using this buffer?`);
    await rm(path, { force: true });
  }
}

interface QueuedWrite {
  batch: EventBatch;
  head: Buffer;
  resolve(): void;
  reject(error: unknown): void;
}

export class DiskBuffer {
  /** Records written and not yet popped, oldest first (from `readHead`). */
  private readonly records: RecordInfo[] = [];
  private readHead = 0;
  /** Popped records not yet acknowledged, oldest first, and which batch each became. */
  private readonly unacknowledged: Array<{ record: RecordInfo; acknowledged: boolean }> = [];
  private readonly popped = new Map<EventBatch, { record: RecordInfo; acknowledged: boolean }>();
  /** Bytes on disk of the records not yet acknowledged (and of those being written): what `max_size` bounds. */
  private diskBytes = 0;
  private events = 0;
  private bytes = 0;
  private closed = false;

  /** Closed: takes no more batches (its consumer drains what it holds). */
  get isClosed(): boolean {
    return this.closed;
  }
  /** See `BatchBuffer`. */
  private pushing = 0;
  /** Bytes of the batches kept in memory (`RecordInfo.kept`). */
  private keptBytes = 0;
  private interrupted = false;
  private readonly waitingForRoom: Array<() => void> = [];
  private waitingForBatch: (() => void) | undefined;

  /** The segment being appended to, and its size. */
  private writeSegment: { id: number; file: FileHandle; size: number };
  private readonly queuedWrites: QueuedWrite[] = [];
  private writing: Promise<void> | undefined;
  /** Written since the last sync. */
  private unsynced = false;
  /** Finalizers of batches written and not yet synced: their sources hear of them once they are durable
   * (Vector: with a disk buffer, an event is delivered once the buffer holds it). */
  private awaitingSync: BatchNotifier[] = [];
  /** `syncSoon` has a sync coming. */
  private syncScheduled = false;
  private reading: { id: number; file: FileHandle } | undefined;
  /** Where the first record not acknowledged starts: what the ledger keeps. */
  private acknowledgedUpTo: Position;
  private ledgerStale = false;
  /** Sizes of the segments before the one being written (they no longer grow). */
  private readonly closedSegments = new Map<number, number>();
  private persisting: Promise<void> = Promise.resolve();
  /** Set by `shutdown`: the files are closed. */
  private shutDown = false;
  /** The lock file, until released. */
  private lockPath: string | undefined;
  private readonly syncTimer: NodeJS.Timeout;

  private constructor(
    readonly directory: string,
    private bufferLimits: BufferLimits,
    private readonly observer: DiskBufferObserver,
    writeSegment: { id: number; file: FileHandle; size: number },
    acknowledgedUpTo: Position,
    private readonly sizes: BufferSizes,
    lockPath: string,
  ) {
    this.lockPath = lockPath;
    this.writeSegment = writeSegment;
    this.acknowledgedUpTo = acknowledgedUpTo;
    this.syncTimer = setInterval(
      () => this.persist().catch((error: unknown) => this.observer.syncFailed?.(error)),
      SYNC_INTERVAL_MS,
    ).unref();
  }

  /** Opens the buffer in `directory` (creating it) and locks it, reading what the last run left: records from
   * the ledger's position on are checked, and a segment's bad tail is cut off and reported. Fails when
   * another process holds the lock. */
  static async open(
    directory: string,
    limits: BufferLimits,
    observer: DiskBufferObserver = {},
    sizes: Partial<BufferSizes> = {},
  ): Promise<DiskBuffer> {
    await mkdir(directory, { recursive: true });
    const lockPath = await lockDirectory(directory);
    try {
      const all = { segmentBytes: SEGMENT_BYTES, keptBytes: KEPT_BYTES, ...sizes };
      return await DiskBuffer.load(directory, limits, observer, all, lockPath);
    } catch (error) {
      rmSync(lockPath, { force: true });
      throw error;
    }
  }

  private static async load(
    directory: string,
    limits: BufferLimits,
    observer: DiskBufferObserver,
    bufferSizes: BufferSizes,
    lockPath: string,
  ): Promise<DiskBuffer> {
    const ids = (await readdir(directory))
      .map((name) => SEGMENT_NAME.exec(name)?.[1])
      .filter((id) => id !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const ledger = await readLedger(directory);
    const start: Position = ledger ?? { segment: ids[0] ?? 0, offset: 0 };
    const records: RecordInfo[] = [];
    const sizes = new Map<number, number>();
    for (const id of ids) {
      const path = join(directory, segmentName(id));
      if (id < start.segment) {
        await unlink(path);
        continue;
      }
      const file = await open(path, 'r+');
      try {
        const { size } = await file.stat();
        const from = id === start.segment ? Math.min(start.offset, size) : 0;
        const scanned = await scanSegment(file, id, from, size);
        // Not `push(...)`: a segment may hold more records than a call takes arguments.
        for (const record of scanned.records) records.push(record);
        sizes.set(id, scanned.end);
        if (scanned.bad) {
          observer.corrupted?.({
            code: scanned.bad.code,
            file: path,
            offset: scanned.end,
            bytes: size - scanned.end,
            events: scanned.bad.count,
          });
          await file.truncate(scanned.end);
          await file.datasync();
        }
      } finally {
        await file.close();
      }
    }
    const lastId = ids.at(-1);
    const writeId = lastId !== undefined && lastId >= start.segment ? lastId : start.segment;
    const segmentFile = await open(join(directory, segmentName(writeId)), 'a');
    const buffer = new DiskBuffer(
      directory,
      limits,
      observer,
      {
        id: writeId,
        file: segmentFile,
        size: sizes.get(writeId) ?? 0,
      },
      {
        segment: start.segment,
        offset: Math.min(start.offset, sizes.get(start.segment) ?? 0),
      },
      bufferSizes,
      lockPath,
    );
    for (const [id, size] of sizes) if (id !== writeId) buffer.closedSegments.set(id, size);
    for (const record of records) {
      buffer.records.push(record);
      buffer.events += record.count;
      buffer.bytes += record.batchBytes;
      buffer.diskBytes += record.size;
    }
    if (records.length > 0) observer.recovered?.(buffer.events, buffer.bytes);
    return buffer;
  }

  get limits(): BufferLimits {
    return this.bufferLimits;
  }

  /** See `BatchBuffer.resize`. */
  resize(limits: BufferLimits): void {
    this.bufferLimits = limits;
    for (const wake of this.waitingForRoom.splice(0)) wake();
  }

  /** See `BatchBuffer.interrupt`. */
  interrupt(): void {
    this.interrupted = true;
    this.wakeConsumer();
  }

  /** Events written and not yet taken by the sink. */
  get eventCount(): number {
    return this.events;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** Bytes of the records on disk not yet acknowledged. */
  get diskByteSize(): number {
    return this.diskBytes;
  }

  /** Appends a batch; resolves once it is written (to the file, synced within 500 ms). With `block`, waits
   * for room first; with `drop_newest`, drops the batch that does not fit. */
  async push(batch: EventBatch): Promise<void> {
    if (this.closed) throw new Error('push into a closed buffer');
    this.pushing++;
    try {
      await this.appendRecord(batch);
    } finally {
      this.pushing--;
      this.wakeConsumer();
    }
  }

  private async appendRecord(batch: EventBatch): Promise<void> {
    const head = encodeRecordHead(batch);
    const size = head.length + batch.bytes.byteLength;
    while (this.diskBytes > 0 && this.limits.maxBytes !== undefined && this.diskBytes + size > this.limits.maxBytes) {
      if (this.limits.whenFull === 'drop_newest') {
        this.observer.dropped?.(batch);
        return;
      }
      await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
    }
    this.diskBytes += size;
    try {
      await new Promise<void>((resolve, reject) => {
        this.queuedWrites.push({ batch, head, resolve, reject });
        this.writing ??= this.writeQueued();
      });
    } catch (error) {
      this.diskBytes -= size;
      throw error;
    }
    if (batch.finalizer) {
      this.awaitingSync.push(batch.finalizer);
      this.syncSoon();
    }
    this.events += batch.count;
    this.bytes += batch.bytes.byteLength;
    this.observer.pushed?.(batch, this.events, this.bytes);
  }

  private wakeConsumer(): void {
    const wake = this.waitingForBatch;
    this.waitingForBatch = undefined;
    wake?.();
  }

  /** The next batch, read back from disk; undefined once the buffer is closed and every batch was taken (or,
   * once, after `interrupt`). */
  async pop(): Promise<EventBatch | undefined> {
    for (;;) {
      while (this.readHead === this.records.length) {
        if ((this.closed && this.pushing === 0) || this.interrupted) {
          this.interrupted = false;
          return undefined;
        }
        await new Promise<void>((resolve) => (this.waitingForBatch = resolve));
      }
      this.interrupted = false;
      const batch = await this.popQueued();
      if (batch !== undefined) return batch;
    }
  }

  /** The next batch if one is written now, without waiting for another; undefined when none is (or every one
   * there had changed on disk). */
  async popQueued(): Promise<EventBatch | undefined> {
    while (this.readHead < this.records.length) {
      const record = this.records[this.readHead]!;
      this.records[this.readHead++] = undefined as unknown as RecordInfo;
      if (this.readHead > 1024 && this.readHead * 2 > this.records.length) {
        this.records.splice(0, this.readHead);
        this.readHead = 0;
      }
      this.events -= record.count;
      this.bytes -= record.batchBytes;
      const entry = { record, acknowledged: false };
      this.unacknowledged.push(entry);
      if (record.kept) {
        const batch = record.kept;
        record.kept = undefined;
        this.keptBytes -= record.batchBytes;
        this.popped.set(batch, entry);
        this.observer.popped?.(batch, this.events, this.bytes);
        return batch;
      }
      const decoded = await this.readRecord(record);
      if (decoded.kind !== 'record') {
        // Changed on disk since it was written or checked: skipped, and counted.
        this.observer.corrupted?.({
          code: decoded.kind === 'bad' ? decoded.code : 'partial_write',
          file: join(this.directory, segmentName(record.segment)),
          offset: record.offset,
          bytes: record.size,
          events: record.count,
        });
        this.settle(entry);
        continue;
      }
      const batch: EventBatch =
        decoded.sourceId === undefined
          ? { bytes: decoded.batch, count: decoded.count }
          : { bytes: decoded.batch, count: decoded.count, sourceId: decoded.sourceId };
      this.popped.set(batch, entry);
      this.observer.popped?.(batch, this.events, this.bytes);
      return batch;
    }
    return undefined;
  }

  /** The sink is done with `batch` (delivered, or given up on): once every batch before it is done too, its
   * record is forgotten (the ledger moves past it within 500 ms) and its bytes make room. */
  acknowledge(batch: EventBatch): void {
    const entry = this.popped.get(batch);
    if (entry === undefined) return;
    this.popped.delete(batch);
    this.settle(entry);
  }

  /** No more pushes: the sink takes what is left, then `pop` returns undefined. */
  close(): void {
    this.closed = true;
    this.wakeConsumer();
  }

  /** Syncs, writes the ledger, closes the files and releases the lock (at the end of the sink's run). */
  async shutdown(): Promise<void> {
    clearInterval(this.syncTimer);
    this.shutDown = true;
    await this.writing;
    await this.persist();
    await this.reading?.file.close();
    await this.writeSegment.file.close();
    this.unlock();
  }

  /** Syncs what was written, writes the ledger and releases the lock, synchronously: the process is about to
   * exit (forced shutdown). Records not acknowledged stay for the next start. */
  persistNow(): void {
    clearInterval(this.syncTimer);
    try {
      if (!this.shutDown) this.persistSync();
    } finally {
      this.unlock();
    }
  }

  private unlock(): void {
    if (this.lockPath === undefined) return;
    rmSync(this.lockPath, { force: true });
    this.lockPath = undefined;
  }

  private persistSync(): void {
    fdatasyncSync(this.writeSegment.file.fd);
    for (const finalizer of this.awaitingSync.splice(0)) finalizer.release();
    if (!this.ledgerStale) return;
    this.ledgerStale = false;
    const path = join(this.directory, LEDGER_FILE);
    writeFileSync(`${path}.tmp`, JSON.stringify(this.acknowledgedUpTo));
    renameSync(`${path}.tmp`, path);
  }

  private settle(entry: { record: RecordInfo; acknowledged: boolean }): void {
    entry.acknowledged = true;
    let freed = false;
    while (this.unacknowledged[0]?.acknowledged) {
      const { record } = this.unacknowledged.shift()!;
      this.acknowledgedUpTo = { segment: record.segment, offset: record.offset + record.size };
      this.diskBytes -= record.size;
      this.ledgerStale = true;
      freed = true;
    }
    if (freed) for (const wake of this.waitingForRoom.splice(0)) wake();
  }

  /** Writes the queued records, as many as are queued in one `writev` per segment. */
  private async writeQueued(): Promise<void> {
    while (this.queuedWrites.length > 0) {
      const queued = this.queuedWrites.splice(0);
      let from = 0;
      while (from < queued.length) {
        // Those that fit in this segment (at least one: a segment holds a record larger than itself).
        let size = 0;
        let to = from;
        while (to < queued.length) {
          const recordSize = queued[to]!.head.length + queued[to]!.batch.bytes.byteLength;
          if (to > from && this.writeSegment.size + size + recordSize > this.sizes.segmentBytes) break;
          if (
            to === from &&
            this.writeSegment.size > 0 &&
            this.writeSegment.size + recordSize > this.sizes.segmentBytes
          ) {
            await this.nextSegment();
          }
          size += recordSize;
          to++;
        }
        const group = queued.slice(from, to);
        try {
          await this.append(group, size);
          for (const write of group) write.resolve();
        } catch (error) {
          for (const write of group) write.reject(error);
        }
        from = to;
      }
    }
    this.writing = undefined;
  }

  private async append(group: QueuedWrite[], size: number): Promise<void> {
    const segment = this.writeSegment;
    const parts = group.flatMap((write) => [write.head, write.batch.bytes]);
    const { bytesWritten } = await segment.file.writev(parts);
    if (bytesWritten !== size) {
      // Cut the partial record off, so the next ones follow the last whole one.
      await segment.file.truncate(segment.size);
      throw new Error(
        `short write to ${join(this.directory, segmentName(segment.id))}: ${bytesWritten} of ${size} bytes`,
      );
    }
    let offset = segment.size;
    for (const { head, batch } of group) {
      const batchBytes = batch.bytes.byteLength;
      const record: RecordInfo = {
        segment: segment.id,
        offset,
        size: head.length + batchBytes,
        count: batch.count,
        batchBytes,
      };
      if (this.keptBytes + batchBytes <= this.sizes.keptBytes) {
        this.keptBytes += batchBytes;
        // As read back: no finalizer (the sync releases it).
        record.kept =
          batch.sourceId === undefined
            ? { bytes: batch.bytes, count: batch.count }
            : { bytes: batch.bytes, count: batch.count, sourceId: batch.sourceId };
      }
      this.records.push(record);
      offset += record.size;
    }
    segment.size = offset;
    this.unsynced = true;
  }

  /** Closes the segment being written (synced) and starts the next. */
  private async nextSegment(): Promise<void> {
    const full = this.writeSegment;
    await full.file.datasync();
    await full.file.close();
    this.closedSegments.set(full.id, full.size);
    const id = full.id + 1;
    this.writeSegment = { id, file: await open(join(this.directory, segmentName(id)), 'a'), size: 0 };
  }

  private async readRecord(record: RecordInfo): Promise<Decoded> {
    if (this.reading?.id !== record.segment) {
      await this.reading?.file.close();
      this.reading = { id: record.segment, file: await open(join(this.directory, segmentName(record.segment)), 'r') };
    }
    const bytes = Buffer.allocUnsafe(record.size);
    const { bytesRead } = await this.reading.file.read(bytes, 0, record.size, record.offset);
    return decodeRecord(bytes.subarray(0, bytesRead), 0, record.offset + record.size, record.offset);
  }

  /** The periodic sync: the segment written to, then the ledger, then the segments wholly acknowledged are
   * deleted. One at a time; what failed is tried again the next time. */
  private persist(): Promise<void> {
    return this.oneAtATime(async () => {
      await this.syncWrites();
      if (!this.ledgerStale) return;
      this.ledgerStale = false;
      // Past the end of a finished segment is the start of the next.
      let position = this.acknowledgedUpTo;
      while (position.offset >= (this.closedSegments.get(position.segment) ?? Number.POSITIVE_INFINITY)) {
        position = { segment: position.segment + 1, offset: 0 };
      }
      this.acknowledgedUpTo = position;
      const path = join(this.directory, LEDGER_FILE);
      try {
        await writeFile(`${path}.tmp`, JSON.stringify(position));
        await rename(`${path}.tmp`, path);
      } catch (error) {
        this.ledgerStale = true;
        throw error;
      }
      for (const id of [...this.closedSegments.keys()]) {
        if (id >= position.segment) continue;
        if (this.reading?.id === id) {
          await this.reading.file.close();
          this.reading = undefined;
        }
        await unlink(join(this.directory, segmentName(id)));
        this.closedSegments.delete(id);
      }
    });
  }

  /** Syncs what was written; then the sources of the batches written before hear of them. */
  private async syncWrites(): Promise<void> {
    // Written before this sync starts, so durable once it ends (or already, by an earlier one).
    const synced = this.awaitingSync;
    this.awaitingSync = [];
    if (this.unsynced) {
      this.unsynced = false;
      try {
        await this.writeSegment.file.datasync();
      } catch (error) {
        this.unsynced = true;
        this.awaitingSync = synced.concat(this.awaitingSync);
        throw error;
      }
    }
    for (const finalizer of synced) finalizer.release();
  }

  /** A sync for the sources waiting to hear of their batches (an HTTP client waits for its answer), once the
   * writes of this turn are done rather than at the next periodic sync: one `fdatasync` for every batch
   * written meanwhile. Waiting for the periodic one answered each client at most twice a second. */
  private syncSoon(): void {
    if (this.syncScheduled) return;
    this.syncScheduled = true;
    setImmediate(() => {
      this.syncScheduled = false;
      if (this.shutDown) return;
      this.oneAtATime(() => this.syncWrites()).catch((error: unknown) => this.observer.syncFailed?.(error));
    });
  }

  /** Runs `work` once the syncs before it are done; the next one runs after it, failed or not. */
  private oneAtATime(work: () => Promise<void>): Promise<void> {
    const run = this.persisting.then(work);
    this.persisting = run.catch(() => undefined);
    return run;
  }
}

/** The ledger's position; undefined when there is none (a new buffer) or it cannot be read (then every
 * segment is read again: events are repeated rather than lost). */
async function readLedger(directory: string): Promise<Position | undefined> {
  let text: string;
  try {
    text = await readFile(join(directory, LEDGER_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { segment, offset } = JSON.parse(text) as Position;
    return Number.isSafeInteger(segment) && Number.isSafeInteger(offset) ? { segment, offset } : undefined;
  } catch {
    return undefined;
  }
}
