// The file source's `multiline` (Vector's line aggregation): a line matching `start_pattern` begins a
// message, and `mode` with `condition_pattern` says which of the next lines join it (joined by "\n"). A line
// that begins no message and joins none goes on alone. A message is complete when a line ends it, when
// `timeout_ms` has passed since its first line was read, or when the file will not grow (or the source
// stops). The lines of the message being gathered are not handed on yet, so the file's checkpoint stays at
// its first line: after a restart the message is read again whole.

import { z } from 'zod';
import { RustRegex } from '../../../../abi/regex.js';
import { rustRegex } from '../../../config/common.js';
import type { PendingLines } from './watcher.js';

export const multilineSchema = z.strictObject({
  start_pattern: rustRegex,
  condition_pattern: rustRegex,
  mode: z.enum(['continue_through', 'continue_past', 'halt_before', 'halt_with']),
  timeout_ms: z.number().int().nonnegative(),
});

export type MultilineOptions = z.infer<typeof multilineSchema>;

/** The message being gathered: its lines, and where the first one starts in the file. */
interface Gathered {
  lines: Buffer[];
  size: number;
  position: number;
  /** When it goes on even if no line ends it (ms, `Date.now()`). */
  deadline: number;
}

/** One file's aggregation (a message never spans files). */
export class LineAggregator {
  private gathered: Gathered | undefined;
  private readonly start: RustRegex;
  private readonly condition: RustRegex;
  private out: PendingLines['parts'] = [];

  constructor(private readonly options: MultilineOptions) {
    this.start = new RustRegex(options.start_pattern);
    this.condition = new RustRegex(options.condition_pattern);
  }

  /** When the message being gathered is due, if one is. */
  get deadline(): number | undefined {
    return this.gathered?.deadline;
  }

  /**
   * The messages `pending`'s lines complete (with the one being gathered when `flush`), each a part of
   * one line; the end position stops at the first line of the message still being gathered.
   */
  aggregate(pending: PendingLines, flush: boolean): PendingLines {
    for (const { data, ranges, base } of pending.parts) {
      for (let i = 0; i < ranges.length; i += 2)
        this.line(data.subarray(ranges[i]!, ranges[i + 1]!), base + ranges[i]!);
    }
    if (flush) this.emitGathered();
    const parts = this.out;
    this.out = [];
    return {
      parts,
      lines: parts.length,
      endPosition: this.gathered?.position ?? pending.endPosition,
    };
  }

  private line(line: Buffer, position: number): void {
    // The patterns read the line as text (invalid UTF-8 as U+FFFD), decoded once.
    const text = line.toString('utf8');
    const gathered = this.gathered;
    if (gathered === undefined) {
      this.fresh(line, text, position);
      return;
    }
    const matches = this.condition.test(text);
    switch (this.options.mode) {
      case 'continue_through':
        if (matches) this.join(gathered, line);
        else {
          this.emitGathered();
          this.fresh(line, text, position);
        }
        return;
      case 'continue_past':
        this.join(gathered, line);
        if (!matches) this.emitGathered();
        return;
      case 'halt_before':
        if (!matches) this.join(gathered, line);
        else {
          this.emitGathered();
          this.fresh(line, text, position);
        }
        return;
      case 'halt_with':
        this.join(gathered, line);
        if (matches) this.emitGathered();
        return;
    }
  }

  /** A line with no message gathered: it begins one, or goes on alone. */
  private fresh(line: Buffer, text: string, position: number): void {
    if (this.start.test(text)) {
      // The line may refer to a read block that is reused: the message keeps a copy.
      this.gathered = {
        lines: [Buffer.from(line)],
        size: line.length,
        position,
        deadline: Date.now() + this.options.timeout_ms,
      };
    } else this.out.push({ data: line, ranges: [0, line.length], base: position });
  }

  private join(gathered: Gathered, line: Buffer): void {
    gathered.lines.push(Buffer.from(line));
    gathered.size += line.length;
  }

  private emitGathered(): void {
    const gathered = this.gathered;
    if (gathered === undefined) return;
    this.gathered = undefined;
    // A message of one line is that line's copy; the lines of a longer one are joined by newlines.
    let data = gathered.lines[0]!;
    if (gathered.lines.length > 1) {
      data = Buffer.allocUnsafe(gathered.size + gathered.lines.length - 1);
      let at = 0;
      for (const [i, line] of gathered.lines.entries()) {
        if (i > 0) data[at++] = 0x0a;
        at += line.copy(data, at);
      }
    }
    this.out.push({ data, ranges: [0, data.length], base: gathered.position });
  }
}
