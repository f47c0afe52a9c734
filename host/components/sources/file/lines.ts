// Splits a file's bytes into lines at a delimiter of one or more bytes, as they arrive in chunks of any size:
// a line split across reads is held until its delimiter comes, and a line longer than `maxLineBytes` is
// dropped up to its delimiter (Vector's `read_until_with_max_size`).

const EMPTY = Buffer.alloc(0);

export interface SplitResult {
  /** The held bytes followed by the chunk; the lines are ranges in it. */
  data: Buffer;
  /** Complete lines as [start, end) pairs in `data`, delimiters excluded. */
  ranges: number[];
  /** Bytes at the start of `data` that are done with (lines, their delimiters, dropped bytes). */
  consumed: number;
  /** Lines dropped for being longer than `maxLineBytes`. */
  oversize: number;
}

export class LineSplitter {
  private pending: Buffer = EMPTY;
  private discarding = false;

  constructor(
    private readonly delimiter: Buffer,
    private readonly maxLineBytes: number,
  ) {}

  /** Bytes of an unfinished line held since the last complete one. */
  get heldBytes(): number {
    return this.pending.length;
  }

  feed(chunk: Buffer): SplitResult {
    const held = this.pending.length;
    const data = held === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const ranges: number[] = [];
    const delimiterLength = this.delimiter.length;
    let oversize = 0;
    let start = 0;
    // The held bytes hold no whole delimiter; one may end in the new chunk.
    let searchFrom = Math.max(0, held - delimiterLength + 1);
    for (;;) {
      const found = data.indexOf(this.delimiter, searchFrom);
      if (found === -1) break;
      if (this.discarding) this.discarding = false;
      else if (found - start > this.maxLineBytes) oversize++;
      else ranges.push(start, found);
      start = searchFrom = found + delimiterLength;
    }
    // Keep what could still begin a delimiter, even while dropping an oversized line.
    let keepFrom = start;
    if (!this.discarding && data.length - start - (delimiterLength - 1) > this.maxLineBytes) {
      this.discarding = true;
      oversize++;
    }
    if (this.discarding) keepFrom = Math.max(start, data.length - (delimiterLength - 1));
    this.pending = keepFrom === data.length ? EMPTY : Buffer.from(data.subarray(keepFrom));
    return { data, ranges, consumed: keepFrom, oversize };
  }

  /** Takes the unfinished line (the last line of a file that will not grow), if any. */
  takeRest(): Buffer | undefined {
    const rest = this.discarding || this.pending.length === 0 ? undefined : this.pending;
    this.reset();
    return rest;
  }

  reset(): void {
    this.pending = EMPTY;
    this.discarding = false;
  }
}
