// The `file` source: tails the files matching `include` (minus `exclude`), line by line, across renames,
// rotations and truncations, and remembers how far it read each one (checkpoints) so a restart neither loses
// nor repeats lines. Discovery runs every `glob_minimum_cooldown_ms`; reading polls, backing off while
// nothing changes.

import type { Stats } from 'node:fs';
import { type FileHandle, open, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { CodecModule, type DecodeOptions } from '../../../runtime/engine.js';
import type { ComponentEnv, Source, SourceContext, SourceDefinition } from '../component.js';
import { BatchNotifier, concatBatches, toBatch, type BatchStatus, type EventBatch } from '../../topology/batch.js';
import { globberFor } from '../../config/glob-paths.js';
import { logNamespaceOf, logNamespaceOption, sourceStamp, stampSource, type StampOrigin } from '../support/decoding.js';
import { Checkpoints } from './file/checkpoints.js';
import { LineAggregator, multilineSchema } from './file/multiline.js';
import { fingerprint } from './file/fingerprint.js';
import { FileWatcher, type Identity, type PendingLines } from './file/watcher.js';

const uint = () => z.number().int().nonnegative();

const options = z.strictObject({
  include: z.array(z.string()).min(1),
  exclude: z.array(z.string()).default([]),
  glob_minimum_cooldown_ms: uint().default(1000),
  read_from: z.enum(['beginning', 'end']).default('beginning'),
  ignore_checkpoints: z.boolean().default(false),
  ignore_older_secs: uint().optional(),
  ignore_not_found: z.boolean().default(false),
  fingerprint: z
    .strictObject({
      strategy: z.enum(['checksum', 'device_and_inode']).default('checksum'),
      lines: z.number().int().positive().default(1),
      ignored_header_bytes: uint().default(0),
    })
    .default({ strategy: 'checksum', lines: 1, ignored_header_bytes: 0 }),
  max_line_bytes: z.number().int().positive().default(102400),
  max_read_bytes: z.number().int().positive().default(2048),
  line_delimiter: z.string().min(1).default('\n'),
  oldest_first: z.boolean().default(false),
  file_key: z.string().default('file'),
  host_key: z.string().optional(),
  offset_key: z.string().optional(),
  data_dir: z.string().optional(),
  remove_after_secs: uint().optional(),
  rotate_wait_secs: uint().optional(),
  multiline: multilineSchema.optional(),
  log_namespace: logNamespaceOption,
});

type FileSourceOptions = z.infer<typeof options>;

/** A file discovery found, open and fingerprinted. */
interface FoundFile {
  path: string;
  handle: FileHandle;
  stats: Stats;
  key: string;
}

/** What a turn reads from all the files watched, in one asynchronous read each: Vector's passes read up to
 * `max_read_bytes` from each file in turn, so files get equal shares of a turn here (at least `max_read_bytes`
 * each, at most FILE_BLOCK_BYTES), and a file read alone goes at I/O speed (1 MiB a read rather than a
 * thread-pool round trip per 2 KiB: 300k lines were read in 200 reads of 256 KiB, ~5% of a file → remap →
 * file run). The turn bounds what reads hold (a read that filled its block is kept by its lines): shares of
 * 1 MiB made 200 files read 5 KiB a round trip, 2.5 times as long as one file of the same lines. */
const TURN_BYTES = 16 << 20;
const FILE_BLOCK_BYTES = 1 << 20;
/** Vector's checkpoint interval. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** The longest pause between polls of files that do not change. */
const MAX_IDLE_MS = 250;
const SOURCE_TYPE = 'file';

/** With acknowledgements: a run of lines handed on, up to `end`, and how its delivery went once known. */
interface Unacknowledged {
  end: number;
  status?: BatchStatus;
}

const LENGTH_DELIMITED: DecodeOptions['framing'] = { method: 'length_delimited', max_frame_length: 0xffffffff };

/** Lines `[from, to)` (`data[i]` from `starts[i]` to `ends[i]`) as length-delimited frames, in one buffer. */
function frames(data: Buffer[], starts: number[], ends: number[], from: number, to: number): Buffer {
  let size = 4 * (to - from);
  for (let line = from; line < to; line++) size += ends[line]! - starts[line]!;
  const input = Buffer.allocUnsafe(size);
  let at = 0;
  for (let line = from; line < to; line++) {
    at = input.writeUInt32BE(ends[line]! - starts[line]!, at);
    at += data[line]!.copy(input, at, starts[line]!, ends[line]!);
  }
  return input;
}

class FileSource implements Source {
  private readonly watchers = new Map<string, FileWatcher>();
  /** `exclude` as a test (picomatch loads only for a source that excludes something). */
  private excluded: ((path: string) => boolean) | undefined;
  private readonly delimiter: Buffer;
  /** Files last modified before this (ms) are read from their end. */
  private readonly ignoreBefore: number | undefined;
  private readonly identity: Identity;
  /** A file's content was replaced: discovery looks for where it went before the cooldown is over. */
  private discoveryDue = false;
  /** With acknowledgements: per file, the runs of lines handed on and not yet part of its checkpoint, in the
   * order they were read (they are acknowledged in any order). */
  private readonly unacknowledged = new Map<FileWatcher, Unacknowledged[]>();
  /** Runs handed on whose acknowledgement has not come, and who waits for there to be none. */
  private awaited = 0;
  private allAcknowledged: (() => void) | undefined;
  /** How a consumer that decodes frames itself splits the file's own bytes: with a one-byte ASCII
   * `line_delimiter` (else lines go as length-delimited frames). */
  private readonly delimitedFraming: DecodeOptions['framing'] | undefined;
  private codec: CodecModule | undefined;
  /** With `multiline`: each file's aggregation. */
  private readonly aggregators = new Map<FileWatcher, LineAggregator>();
  /** What each file reads into per turn (one file is read at a time; a new one once a read kept it). */
  private block: Buffer;
  private readonly origin: StampOrigin;

  constructor(
    private readonly options: FileSourceOptions,
    private readonly env: ComponentEnv,
    private readonly checkpoints: Checkpoints,
  ) {
    this.delimiter = Buffer.from(options.line_delimiter, 'utf8');
    this.origin = { sourceType: SOURCE_TYPE, logNamespace: logNamespaceOf(env, options.log_namespace) };
    this.ignoreBefore =
      options.ignore_older_secs === undefined ? undefined : Date.now() - options.ignore_older_secs * 1000;
    this.identity = { options: options.fingerprint, maxBytes: options.max_line_bytes * options.fingerprint.lines };
    // A multiline message holds newlines: it cannot go as the file has it.
    this.delimitedFraming =
      this.delimiter.length === 1 && this.delimiter[0]! < 0x80 && options.multiline === undefined
        ? { method: 'character_delimited', delimiter: options.line_delimiter }
        : undefined;
    this.block = Buffer.allocUnsafe(this.readShare());
  }

  /** How much a turn reads from each file: equal shares of TURN_BYTES, at least `max_read_bytes`. */
  private readShare(): number {
    return Math.max(
      this.options.max_read_bytes,
      Math.min(FILE_BLOCK_BYTES, Math.floor(TURN_BYTES / Math.max(1, this.watchers.size))),
    );
  }

  /** The files there at start-up (`read_from` applies to them), found while the pipeline is built. */
  discoverAtStartup(): Promise<void> {
    return this.discover(true);
  }

  async run(context: SourceContext): Promise<void> {
    const { shutdown } = context;
    try {
      let lastDiscovery = Date.now();
      let lastCheckpoint = Date.now();
      let idleMs = 1;
      while (!shutdown.aborted) {
        if (this.discoveryDue || Date.now() - lastDiscovery >= this.options.glob_minimum_cooldown_ms) {
          this.discoveryDue = false;
          await this.discover(false);
          lastDiscovery = Date.now();
        }
        const readSomething = await this.readRound(context);
        await this.handOnDueMessages(context);
        if (Date.now() - lastCheckpoint >= CHECKPOINT_INTERVAL_MS) {
          await this.saveCheckpoints();
          lastCheckpoint = Date.now();
        }
        if (readSomething) {
          idleMs = 1;
          continue;
        }
        await sleep(Math.min(idleMs, this.untilNextDueMessage()), undefined, { signal: shutdown }).catch(
          () => undefined,
        );
        idleMs = Math.min(idleMs * 2, MAX_IDLE_MS, Math.max(1, this.options.glob_minimum_cooldown_ms));
      }
      // Shutdown: hand on every complete line already read (and every message being gathered).
      for (const watcher of this.watchers.values()) await this.handOn(watcher, context, true);
    } finally {
      await this.saveCheckpoints();
      for (const watcher of this.watchers.values()) await watcher.close().catch(() => undefined);
      this.watchers.clear();
    }
  }

  /** One turn over the files: each reads up to a block (`readShare`); lines go on once a batch is full or
   * the file is caught up. Returns whether any file had new bytes. */
  private async readRound(context: SourceContext): Promise<boolean> {
    const share = this.readShare();
    if (this.block.length !== share) this.block = Buffer.allocUnsafe(share);
    let readSomething = false;
    for (const watcher of this.readOrder()) {
      if (context.shutdown.aborted) break;
      let outcome;
      try {
        outcome = await watcher.read(
          this.block,
          (count) => this.oversize(watcher, count),
          (bytes) => this.env.telemetry.receivedRaw(bytes),
        );
      } catch (error) {
        this.env.telemetry.error('reading_failed', 'receiving');
        this.env.log.error(`Failed reading file ${watcher.path}: ${(error as Error).message}`, { file: watcher.path });
        watcher.dead = true;
        continue;
      }
      if (outcome === 'replaced') this.discoveryDue = true;
      if (outcome === 'kept') this.block = Buffer.allocUnsafe(this.block.length);
      const caughtUp = outcome === 'eof' || outcome === 'replaced';
      if (!caughtUp) readSomething = true;
      if (!watcher.findable) {
        // Renamed away or deleted: its writer may still hold it, so it is read for as long as it is watched,
        // `rotate_wait_secs` after discovery last found it (no limit by default); then its last line too.
        const rotateWait = this.options.rotate_wait_secs;
        if (rotateWait !== undefined && Date.now() - watcher.lastSeen >= rotateWait * 1000) {
          if (caughtUp) watcher.finish();
          watcher.dead = true;
        }
      }
      // A message being gathered ends with the content it was read from.
      if (caughtUp || watcher.pending.lines >= this.env.chunkSize)
        await this.handOn(watcher, context, outcome === 'replaced');
      if (caughtUp && watcher.findable && !watcher.dead) await this.removeIfDone(watcher);
      if (readSomething && this.options.oldest_first) break;
    }
    for (const [fingerprintKey, watcher] of this.watchers) {
      if (!watcher.dead) continue;
      await this.handOn(watcher, context, true);
      this.aggregators.delete(watcher);
      this.env.log.info(`Stopped watching file ${watcher.path}.`, { file: watcher.path });
      this.watchers.delete(fingerprintKey);
      this.checkpoints.setDead(fingerprintKey);
      await watcher.close().catch(() => undefined);
    }
    return readSomething;
  }

  private readOrder(): FileWatcher[] {
    const watchers = [...this.watchers.values()];
    return this.options.oldest_first ? watchers.sort((a, b) => a.created - b.created) : watchers;
  }

  /** With `multiline`: hands on the messages whose `timeout_ms` has passed. */
  private async handOnDueMessages(context: SourceContext): Promise<void> {
    const now = Date.now();
    for (const [watcher, aggregator] of this.aggregators) {
      const deadline = aggregator.deadline;
      if (deadline !== undefined && deadline <= now) await this.handOn(watcher, context, true);
    }
  }

  /** Milliseconds until a message being gathered is due (Infinity when none is). */
  private untilNextDueMessage(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const aggregator of this.aggregators.values()) next = Math.min(next, aggregator.deadline ?? next);
    return Math.max(1, next - Date.now());
  }

  /** The watcher's pending lines, as messages with `multiline` (`flush`: with the one being gathered). */
  private takeMessages(watcher: FileWatcher, flush: boolean): PendingLines {
    const pending = watcher.takePending();
    const multiline = this.options.multiline;
    if (multiline === undefined) return pending;
    let aggregator = this.aggregators.get(watcher);
    if (aggregator === undefined) this.aggregators.set(watcher, (aggregator = new LineAggregator(multiline)));
    return aggregator.aggregate(pending, flush);
  }

  /** Decodes the watcher's pending lines into batches and sends them. The checkpoint then moves past them,
   * or with acknowledgements, once they and every run read before them from the file are acknowledged. */
  private async handOn(watcher: FileWatcher, context: SourceContext, flush = false): Promise<void> {
    const pending = this.takeMessages(watcher, flush);
    if (!this.env.acknowledgements) {
      for (const batch of this.batches(watcher.path, pending)) await context.send(batch);
      this.checkpoints.set(watcher.fingerprint, pending.endPosition);
      return;
    }
    const run: Unacknowledged = { end: pending.endPosition };
    let runs = this.unacknowledged.get(watcher);
    if (runs === undefined) this.unacknowledged.set(watcher, (runs = []));
    runs.push(run);
    this.awaited++;
    const finalizer = new BatchNotifier((status) => {
      run.status = status;
      this.advance(watcher);
    });
    for (const batch of this.batches(watcher.path, pending)) {
      finalizer.hold();
      await context.send({ ...batch, finalizer });
    }
    finalizer.release();
  }

  /** Moves the file's checkpoint over the acknowledged runs at the head of its list. As in Vector, a run
   * that was not delivered does not move it, but a delivered run after it does. */
  private advance(watcher: FileWatcher): void {
    const runs = this.unacknowledged.get(watcher)!;
    let position: number | undefined;
    let settled = 0;
    while (settled < runs.length && runs[settled]!.status !== undefined) {
      if (runs[settled]!.status === 'delivered') position = runs[settled]!.end;
      settled++;
    }
    runs.splice(0, settled);
    if (position !== undefined) {
      this.checkpoints.set(watcher.fingerprint, position);
      // A file no longer watched keeps its entry only for a while.
      if (watcher.dead) this.checkpoints.setDead(watcher.fingerprint);
    }
    if (runs.length === 0 && watcher.dead) this.unacknowledged.delete(watcher);
    this.awaited -= settled;
    if (this.awaited === 0) this.allAcknowledged?.();
  }

  /** Every run handed on is acknowledged: the checkpoints are saved as acknowledgements come (every
   * `CHECKPOINT_INTERVAL_MS`), and once more at the end. */
  async acknowledged(): Promise<void> {
    while (this.awaited > 0) {
      const none = new Promise<void>((resolve) => (this.allAcknowledged = resolve));
      await Promise.race([none, sleep(CHECKPOINT_INTERVAL_MS)]);
      await this.saveCheckpoints();
    }
    this.allAcknowledged = undefined;
    await this.saveCheckpoints();
  }

  /** Lines → batches of up to `chunkSize` events, through the codec module: the lines are handed to it as
   * length-delimited frames, stamped with the file (and, with `offset_key`, each line's offset). When the
   * one consumer decodes frames itself, the frames go to it undecoded (as the file has them, when it can
   * split them: `delimitedBatches`). */
  private *batches(path: string, pending: PendingLines): Generator<EventBatch> {
    if (pending.lines === 0) return;
    const origin = this.origin;
    const fileStamp = stampSource(
      sourceStamp(this.env, origin, this.options.host_key),
      origin,
      this.options.file_key,
      ['path'],
      path,
    );
    // Vector's namespace has every line's offset (`%file.offset`), the legacy one only with `offset_key`.
    const perLine = this.options.offset_key !== undefined || origin.logNamespace === 'vector';
    const decodeOptions = (offset?: number): DecodeOptions => ({
      framing: LENGTH_DELIMITED,
      codec: 'bytes',
      messageKey: this.env.globals.log_schema.message_key,
      stamp:
        offset === undefined ? fileStamp : stampSource(fileStamp, origin, this.options.offset_key, ['offset'], offset),
      logNamespace: origin.logNamespace,
      eof: true,
    });
    if (this.env.consumerDecodes && !perLine && this.delimitedFraming !== undefined) {
      yield* this.delimitedBatches(pending, { ...decodeOptions(), framing: this.delimitedFraming });
      return;
    }
    const data: Buffer[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    for (const part of pending.parts)
      for (let i = 0; i < part.ranges.length; i += 2) {
        data.push(part.data);
        starts.push(part.ranges[i]!);
        ends.push(part.ranges[i + 1]!);
      }
    if (perLine) {
      const bases = pending.parts.flatMap((part) => Array<number>(part.ranges.length / 2).fill(part.base));
      for (let from = 0; from < data.length; from += this.env.chunkSize) {
        const to = Math.min(from + this.env.chunkSize, data.length);
        const batches: EventBatch[] = [];
        for (let line = from; line < to; line++) {
          const one = this.decode(
            path,
            frames(data, starts, ends, line, line + 1),
            decodeOptions(bases[line]! + starts[line]!),
          );
          if (one) batches.push(one);
        }
        if (batches.length > 0) yield concatBatches(batches);
      }
      return;
    }
    for (let from = 0; from < data.length; from += this.env.chunkSize) {
      const to = Math.min(from + this.env.chunkSize, data.length);
      const input = frames(data, starts, ends, from, to);
      if (this.env.consumerDecodes) yield { bytes: input, count: to - from, frames: decodeOptions() };
      else {
        const batch = this.decode(path, input, decodeOptions());
        if (batch) yield batch;
      }
    }
  }

  /** The lines as the file has them, each followed by its delimiter, in batches of up to `chunkSize`: a run
   * of lines read together is copied once, not line by line. */
  private *delimitedBatches(pending: PendingLines, frames: DecodeOptions): Generator<EventBatch> {
    const limit = this.env.chunkSize;
    let segments: Buffer[] = [];
    let size = 0;
    let count = 0;
    const batch = (): EventBatch => {
      const bytes = segments.length === 1 ? segments[0]! : Buffer.concat(segments, size);
      const lines = count;
      [segments, size, count] = [[], 0, 0];
      return { bytes, count: lines, frames };
    };
    for (const { data, ranges } of pending.parts) {
      for (let i = 0; i < ranges.length; ) {
        const start = ranges[i]!;
        let end = ranges[i + 1]!;
        i += 2;
        count++;
        // The next line follows right after this one's delimiter (no oversized line dropped between).
        while (i < ranges.length && ranges[i] === end + 1 && count < limit) {
          end = ranges[i + 1]!;
          i += 2;
          count++;
        }
        // A line joined from several reads, or the last one of a file, comes without its delimiter.
        if (end < data.length) segments.push(data.subarray(start, end + 1));
        else segments.push(data.subarray(start, end), this.delimiter);
        size += end + 1 - start;
        if (count === limit) yield batch();
      }
    }
    if (count > 0) yield batch();
  }

  /** Decodes frames here; failures are counted and logged. */
  private decode(path: string, input: Uint8Array, options: DecodeOptions): EventBatch | undefined {
    // Made on first use: a consumer that decodes frames itself needs none here.
    this.codec ??= new CodecModule({ timezone: this.env.globals.timezone });
    const result = this.codec.decode(input, options);
    for (const { message } of result.errors) {
      this.env.telemetry.error('parser_failed', 'processing');
      this.env.log.error(`Failed decoding a line of ${path}: ${message}`, {
        file: path,
        internal_log_rate_key: 'parser_failed',
      });
    }
    return result.count > 0 ? toBatch(result.batch) : undefined;
  }

  private oversize(watcher: FileWatcher, count: number): void {
    this.env.telemetry.error('condition_failed', 'receiving', count);
    this.env.log.warn(`Found line that exceeds max_line_bytes (${this.options.max_line_bytes}); discarding.`, {
      file: watcher.path,
      count,
    });
  }

  /** `remove_after_secs`: a file read to its end and not written since is deleted. */
  private async removeIfDone(watcher: FileWatcher): Promise<void> {
    const after = this.options.remove_after_secs;
    if (after === undefined || Date.now() - watcher.lastReadSuccess < after * 1000) return;
    try {
      await unlink(watcher.path);
      this.env.log.info(`Removed file ${watcher.path} (remove_after_secs).`, { file: watcher.path });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.env.telemetry.error('deletion_failed', 'receiving');
        this.env.log.error(`Failed removing file ${watcher.path}: ${(error as Error).message}`, { file: watcher.path });
        return;
      }
    }
    watcher.dead = true;
  }

  /** Finds the files to read (Vector's file server): a known fingerprint at a new path is the same file
   * renamed (or, if its old path is still there, a duplicate: the most recently modified one is read); a new
   * fingerprint is a new file, read from its checkpoint, or per `read_from` at start-up, else from the start.
   * Known fingerprints are followed first, so that the content of a replaced file (copytruncate) is followed
   * to its copy before the new content at its path is taken for a new file. */
  private async discover(startup: boolean): Promise<void> {
    this.excluded ??=
      this.options.exclude.length === 0
        ? () => false
        : (await import('picomatch')).default(this.options.exclude, { dot: true });
    const excluded = this.excluded;
    const found = (await this.matchingFiles()).filter((path) => !excluded(path));
    for (const watcher of this.watchers.values()) watcher.findable = false;
    const now = Date.now();
    const files: FoundFile[] = [];
    for (const path of found) {
      const file = await this.fingerprinted(path);
      if (file === undefined) continue;
      const known = this.watchers.get(file.key);
      if (known?.path === path && known.dev === file.stats.dev && known.ino === file.stats.ino && !known.replaced) {
        // Still where it was (most files, most rounds): its handle is closed now rather than held with all.
        await file.handle.close();
        known.findable = true;
        known.lastSeen = now;
      } else files.push(file);
    }
    files.sort((a, b) => Number(this.watchers.has(b.key)) - Number(this.watchers.has(a.key)));
    for (const { path, handle, stats, key } of files) {
      const known = this.watchers.get(key);
      if (known !== undefined) {
        const foundThisRound = known.findable;
        known.findable = true;
        known.lastSeen = now;
        if (known.path === path) await handle.close();
        else if (!foundThisRound) {
          this.env.log.info(`Watched file has been renamed: ${known.path} -> ${path}.`, { file: path });
          await known.moveTo(path, handle, stats.dev, stats.ino);
        } else {
          this.env.log.info(`More than one file has the same fingerprint: ${known.path} and ${path}.`, { file: path });
          const knownStats = await stat(known.path).catch(() => undefined);
          if (knownStats !== undefined && knownStats.mtimeMs < stats.mtimeMs) {
            this.env.log.info(`Switching to watch most recently modified file: ${path}.`, { file: path });
            await known.moveTo(path, handle, stats.dev, stats.ino);
          } else await handle.close();
        }
        // Truncated, then written again with the same first lines.
        if (known.replaced && known.path === path && known.dev === stats.dev && known.ino === stats.ino)
          this.restart(known, key);
        continue;
      }
      // The same file with other first lines (truncated and written again): new content, read from its start.
      const rewritten = [...this.watchers.values()].find(
        (w) => w.path === path && w.dev === stats.dev && w.ino === stats.ino,
      );
      if (rewritten !== undefined) {
        await handle.close();
        this.watchers.delete(rewritten.fingerprint);
        this.checkpoints.setDead(rewritten.fingerprint);
        this.restart(rewritten, key);
        rewritten.findable = true;
        rewritten.lastSeen = now;
        this.watchers.set(key, rewritten);
        continue;
      }
      const checkpoint = this.checkpoints.get(key);
      const tooOld = this.ignoreBefore !== undefined && stats.mtimeMs < this.ignoreBefore;
      let position: number;
      if (tooOld) position = stats.size;
      else if (checkpoint !== undefined) position = checkpoint <= stats.size ? checkpoint : 0;
      else position = startup && this.options.read_from === 'end' ? stats.size : 0;
      this.env.log.debug(`Watching file ${path} from byte ${position}.`, { file: path });
      this.watchers.set(
        key,
        new FileWatcher(
          path,
          key,
          handle,
          stats.dev,
          stats.ino,
          stats.birthtimeMs || stats.mtimeMs,
          position,
          this.delimiter,
          this.options.max_line_bytes,
          this.identity,
        ),
      );
    }
  }

  /** The files `include` names: a plain path is looked at alone (a glob walks its directory tree; most
   * configurations name their files), the patterns are globbed. */
  private async matchingFiles(): Promise<string[]> {
    const globber = await globberFor(this.options.include);
    const patterns = globber
      ? this.options.include.filter((path) => globber.isDynamicPattern(path) || path.includes('\\'))
      : [];
    const plain = this.options.include.filter((path) => !patterns.includes(path)).map((path) => resolve(path));
    const files = await Promise.all(
      plain.map((path) =>
        stat(path).then(
          (stats) => (stats.isFile() ? path : undefined),
          () => undefined,
        ),
      ),
    );
    const globbed =
      globber === undefined || patterns.length === 0
        ? []
        : await globber.glob(patterns, { absolute: true, onlyFiles: true, dot: true, expandDirectories: false });
    return [...new Set([...files.filter((path) => path !== undefined), ...globbed])];
  }

  /** Opens `path` and fingerprints it; undefined (reported unless `ignore_not_found` covers it) when it
   * cannot be opened, or has too few lines to be fingerprinted yet. */
  private async fingerprinted(path: string): Promise<FoundFile | undefined> {
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && this.options.ignore_not_found) return undefined;
      this.env.telemetry.error('reading_failed', 'receiving');
      this.env.log.error(`Failed opening file ${path}: ${(error as Error).message}`, { file: path });
      return undefined;
    }
    const stats = await handle.stat();
    const key = await fingerprint(handle, stats, this.identity.options, this.identity.maxBytes);
    if (key !== undefined) return { path, handle, stats, key };
    await handle.close();
    return undefined;
  }

  private restart(watcher: FileWatcher, key: string): void {
    this.env.log.info(`File ${watcher.path} was truncated: reading it from the start.`, { file: watcher.path });
    watcher.restart(key);
  }

  private async saveCheckpoints(): Promise<void> {
    try {
      await this.checkpoints.save();
    } catch (error) {
      this.env.telemetry.error('writing_failed', 'receiving');
      this.env.log.error(`Failed writing checkpoints to ${this.checkpoints.directory}: ${(error as Error).message}`);
    }
  }
}

const file: SourceDefinition<FileSourceOptions> = {
  kind: 'source',
  type: SOURCE_TYPE,
  description: 'Collect logs from files.',
  options,
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  async build(options, env) {
    const checkpoints = await Checkpoints.open(
      join(options.data_dir ?? env.globals.data_dir, env.id),
      options.ignore_checkpoints,
    );
    const source = new FileSource(options, env, checkpoints);
    await source.discoverAtStartup();
    return source;
  },
};

export default file;
