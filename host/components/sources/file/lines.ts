// Splits a file's bytes into lines at a delimiter of one or more bytes, as they arrive in chunks of any size:
// a line split across reads is held until its delimiter comes, and a line longer than `maxLineBytes` is
// dropped up to its delimiter (Vector's `read_until_with_max_size`). Work is linear in the bytes: an
// unfinished line is held as the chunks it came in, each chunk is searched once, and a line spread over
// chunks is joined once, when its delimiter arrives.

/** Complete lines in one buffer, as [start, end) pairs (delimiters excluded). */
interface LinePart {
  data: Buffer;
  ranges: number[];
  /** Offset of `data[0]` from the first byte that was held before this feed. */
  offset: number;
}

export interface SplitResult {
  parts: LinePart[];
  /** Bytes done with (lines, their delimiters, dropped bytes), counted from the first byte held before. */
  consumed: number;
  /** Lines dropped for being longer than `maxLineBytes`. */
  oversize: number;
}

export class LineSplitter {
  /** The unfinished line, in the chunks it was read in (while discarding, only its last bytes that could
   * begin a delimiter). */
  private pieces: Buffer[] = [];
  private held = 0;
  private discarding = false;
  /** What `indexOf` searches: a one-byte delimiter as a number (memchr, ~2× the speed of a buffer needle). */
  private readonly needle: Buffer | number;

  constructor(
    private readonly delimiter: Buffer,
    private readonly maxLineBytes: number,
  ) {
    this.needle = delimiter.length === 1 ? delimiter[0]! : delimiter;
  }

  /** Bytes of an unfinished line held since the last complete one. */
  get heldBytes(): number {
    return this.held;
  }

  feed(chunk: Buffer): SplitResult {
    const delimiterLength = this.delimiter.length;
    const heldBefore = this.held;
    // A delimiter may begin in the held bytes: their last few are searched again with the chunk.
    const carry = Math.min(delimiterLength - 1, heldBefore);
    const data = carry === 0 ? chunk : Buffer.concat([this.lastHeld(carry), chunk]);
    const dataOffset = heldBefore - carry;
    const parts: LinePart[] = [];
    const ranges: number[] = [];
    let oversize = 0;
    let start = 0;
    let continuing = heldBefore > 0 || this.discarding;
    for (let found = data.indexOf(this.needle); found !== -1; found = data.indexOf(this.needle, start)) {
      if (continuing) {
        const length = dataOffset + found;
        if (this.discarding) this.discarding = false;
        else if (length > this.maxLineBytes) oversize++;
        else
          parts.push({
            data: this.join(length, data.subarray(carry, Math.max(carry, found))),
            ranges: [0, length],
            offset: 0,
          });
        this.pieces = [];
        this.held = 0;
        continuing = false;
      } else if (found - start > this.maxLineBytes) oversize++;
      else ranges.push(start, found);
      start = found + delimiterLength;
    }
    if (ranges.length > 0) parts.push({ data, ranges, offset: dataOffset });
    if (continuing) this.hold(chunk);
    else if (start < data.length) this.hold(Buffer.from(data.subarray(start)));
    // Keep what could still begin a delimiter, even while dropping an oversized line.
    if (!this.discarding && this.held - (delimiterLength - 1) > this.maxLineBytes) {
      this.discarding = true;
      oversize++;
    }
    if (this.discarding && this.held > delimiterLength - 1) {
      const tail = this.lastHeld(delimiterLength - 1);
      this.pieces = tail.length === 0 ? [] : [tail];
      this.held = tail.length;
    }
    return { parts, consumed: heldBefore + chunk.length - this.held, oversize };
  }

  /** Takes the unfinished line (the last line of a file that will not grow), if any. */
  takeRest(): Buffer | undefined {
    const rest = this.discarding || this.held === 0 ? undefined : this.join(this.held, Buffer.alloc(0));
    this.reset();
    return rest;
  }

  reset(): void {
    this.pieces = [];
    this.held = 0;
    this.discarding = false;
  }

  private hold(piece: Buffer): void {
    this.pieces.push(piece);
    this.held += piece.length;
  }

  /** The first `length` bytes of the held pieces followed by `more`, copied once into one buffer. */
  private join(length: number, more: Buffer): Buffer {
    return Buffer.concat([...this.pieces, more], length);
  }

  /** A copy of the last `count` held bytes. */
  private lastHeld(count: number): Buffer {
    const tail: Buffer[] = [];
    for (let i = this.pieces.length - 1, need = count; need > 0; i--) {
      const piece = this.pieces[i]!;
      tail.unshift(piece.subarray(Math.max(0, piece.length - need)));
      need -= piece.length;
    }
    return Buffer.concat(tail, count);
  }
}
