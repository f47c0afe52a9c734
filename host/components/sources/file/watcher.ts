// One watched file: an open handle read at a position, its lines split as they come, what was read but not
// yet handed on, and what discovery knows of it (found under an include pattern this round, last seen).
// The handle is read for as long as the file is watched, also once it was renamed away or deleted: its
// writer may still hold it. A file whose content was replaced under the handle (truncated, or rewritten
// with other first lines) is not read further until discovery says where its old content went.

import type { FileHandle } from 'node:fs/promises';
import { fingerprint, type FingerprintOptions } from './fingerprint.js';
import { LineSplitter } from './lines.js';

/** Lines read from a file and not yet handed on, as ranges in the chunks they were read in. */
export interface PendingLines {
  parts: Array<{ data: Buffer; ranges: number[]; base: number }>;
  lines: number;
  /** Position the checkpoint takes once these lines are handed on. */
  endPosition: number;
}

/** 'data': bytes were read; 'kept': bytes were read and the lines refer to the block read into. */
export type ReadOutcome = 'data' | 'kept' | 'eof' | 'replaced';

/** How the watcher tells that the content under its handle is still the file it fingerprinted. */
export interface Identity {
  options: FingerprintOptions;
  maxBytes: number;
}

export class FileWatcher {
  /** Found by the last discovery. */
  findable = true;
  /** When discovery last found it (ms). */
  lastSeen = Date.now();
  /** When a read last returned bytes (ms). */
  lastReadSuccess = Date.now();
  dead = false;
  /** The content under the handle is no longer the file's (truncated or rewritten): not read until
   * discovery follows the content elsewhere (a copy, `moveTo`) or reads the handle again (`restart`). */
  replaced = false;
  pending: PendingLines;
  /** The last read reached the end of the file: bytes found later may follow a truncation, so the first
   * lines are checked again before they are read (once per catching up, not per read). */
  private atEnd = false;
  private readonly splitter: LineSplitter;

  constructor(
    public path: string,
    public fingerprint: string,
    private handle: FileHandle,
    public dev: number,
    public ino: number,
    /** When the file was created (for `oldest_first`). */
    readonly created: number,
    /** File offset of the first byte not yet made into a line. */
    private position: number,
    delimiter: Buffer,
    maxLineBytes: number,
    private readonly identity: Identity,
  ) {
    this.splitter = new LineSplitter(delimiter, maxLineBytes);
    this.pending = { parts: [], lines: 0, endPosition: position };
  }

  /** Reads up to `block.length` bytes into `block` and splits them into lines added to `pending`; oversized
   * lines are reported. A read that fills at least half the block keeps it (the lines refer to it: 'kept',
   * the caller reads into another block next), a shorter one copies what it keeps. A file shorter than the
   * read position, or grown again after its end with other first lines, was replaced: 'replaced', nothing
   * read. */
  async read(
    block: Buffer,
    onOversize: (count: number) => void,
    onBytes: (count: number) => void,
  ): Promise<ReadOutcome> {
    if (this.replaced) return 'eof';
    const offset = this.position + this.splitter.heldBytes;
    const { bytesRead } = await this.handle.read(block, 0, block.length, offset);
    if (bytesRead === 0) {
      this.atEnd = true;
      const { size } = await this.handle.stat();
      return size >= offset ? 'eof' : this.markReplaced();
    }
    if (this.atEnd) {
      // Truncated and written again past our position since we looked: the same file no more.
      if ((await this.currentFingerprint()) !== this.fingerprint) return this.markReplaced();
    }
    this.atEnd = bytesRead < block.length;
    onBytes(bytesRead);
    this.lastReadSuccess = Date.now();
    // Part offsets count from the held bytes, which start at `position`.
    const keep = bytesRead * 2 >= block.length;
    const split = this.splitter.feed(keep ? block.subarray(0, bytesRead) : Buffer.from(block.subarray(0, bytesRead)));
    if (split.oversize > 0) onOversize(split.oversize);
    for (const { data, ranges, offset } of split.parts) {
      this.pending.parts.push({ data, ranges, base: this.position + offset });
      this.pending.lines += ranges.length / 2;
    }
    this.position += split.consumed;
    this.pending.endPosition = this.position;
    return keep ? 'kept' : 'data';
  }

  private markReplaced(): ReadOutcome {
    this.replaced = true;
    return 'replaced';
  }

  private async currentFingerprint(): Promise<string | undefined> {
    return fingerprint(this.handle, this, this.identity.options, this.identity.maxBytes);
  }

  /** The file under the handle is new content (truncated, rewritten): read it from its start, as
   * `fingerprint`. The unfinished line of the old content is dropped; its complete lines stay pending. */
  restart(fingerprint: string): void {
    this.fingerprint = fingerprint;
    this.splitter.reset();
    this.position = 0;
    this.pending.endPosition = 0;
    this.replaced = false;
    this.atEnd = false;
  }

  /** The file will not grow (gone from the include patterns and read to its end): its unfinished last line
   * becomes a line, as Vector does. */
  finish(): void {
    const rest = this.splitter.takeRest();
    if (rest === undefined) return;
    this.pending.parts.push({ data: rest, ranges: [0, rest.length], base: this.position });
    this.pending.lines++;
    this.position += rest.length;
    this.pending.endPosition = this.position;
  }

  /** Takes the pending lines (to hand them on). */
  takePending(): PendingLines {
    const taken = this.pending;
    this.pending = { parts: [], lines: 0, endPosition: taken.endPosition };
    return taken;
  }

  /** Follows the file to another path (Vector's `update_path`): a different file there (a copy of this
   * one, when it was replaced) is read from the same position. */
  async moveTo(path: string, handle: FileHandle, dev: number, ino: number): Promise<void> {
    this.path = path;
    if (dev === this.dev && ino === this.ino) {
      await handle.close();
      return;
    }
    await this.handle.close();
    this.handle = handle;
    this.dev = dev;
    this.ino = ino;
    this.replaced = false;
    this.atEnd = false;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
