// One watched file: an open handle read at a position, its lines split as they come, what was read but not
// yet handed on, and what discovery knows of it (found under an include pattern this round, last seen).

import type { FileHandle } from 'node:fs/promises';
import { LineSplitter } from './lines.js';

/** Lines read from a file and not yet handed on, as ranges in the chunks they were read in. */
export interface PendingLines {
  parts: Array<{ data: Buffer; ranges: number[]; base: number }>;
  lines: number;
  /** Position the checkpoint takes once these lines are handed on. */
  endPosition: number;
}

export type ReadOutcome = 'data' | 'eof' | 'truncated';

export class FileWatcher {
  /** Found by the last discovery. */
  findable = true;
  /** When discovery last found it (ms). */
  lastSeen = Date.now();
  /** When a read last returned bytes (ms). */
  lastReadSuccess = Date.now();
  dead = false;
  pending: PendingLines;
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
  ) {
    this.splitter = new LineSplitter(delimiter, maxLineBytes);
    this.pending = { parts: [], lines: 0, endPosition: position };
  }

  /** Reads up to `maxBytes` and splits them into lines added to `pending`; oversized lines are reported. */
  async read(
    maxBytes: number,
    onOversize: (count: number) => void,
    onBytes: (count: number) => void,
  ): Promise<ReadOutcome> {
    const offset = this.position + this.splitter.heldBytes;
    const buffer = Buffer.allocUnsafe(maxBytes);
    const { bytesRead } = await this.handle.read(buffer, 0, maxBytes, offset);
    if (bytesRead === 0) {
      const { size } = await this.handle.stat();
      if (size >= offset) return 'eof';
      // Truncated (copytruncate, `> file`): what is there now is new.
      this.splitter.reset();
      this.position = 0;
      this.pending.endPosition = 0;
      return 'truncated';
    }
    onBytes(bytesRead);
    this.lastReadSuccess = Date.now();
    // Part offsets count from the held bytes, which start at `position`.
    const split = this.splitter.feed(buffer.subarray(0, bytesRead));
    if (split.oversize > 0) onOversize(split.oversize);
    for (const { data, ranges, offset } of split.parts) {
      this.pending.parts.push({ data, ranges, base: this.position + offset });
      this.pending.lines += ranges.length / 2;
    }
    this.position += split.consumed;
    this.pending.endPosition = this.position;
    return 'data';
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

  /** Follows the file to another path (Vector's `update_path`): a different file there is read from the
   * same position. */
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
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
