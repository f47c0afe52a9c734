// The `file` sink: events appended to files whose path is a template (`{{ field }}`, strftime). The template
// runs in wasm as a remap program over each batch; events go to their file grouped, one open handle per
// path, closed after `idle_timeout_secs` without a write. With compression, each write is one gzip member
// or zstd frame: the file stays a valid stream after every write, and appending to it keeps it valid.

import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { templateOption } from '../../config/template.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { releaseBytes, type EventBatch } from '../../topology/batch.js';
import { compress } from '../support/compression.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate } from '../support/event-template.js';

const options = z.strictObject({
  path: templateOption(),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
  compression: z.enum(['none', 'gzip', 'zstd']).default('none'),
  idle_timeout_secs: z.number().int().positive().default(30),
  timezone: z.string().optional(),
});

type FileOptions = z.infer<typeof options>;

interface OpenFile {
  handle: FileHandle;
  lastWrite: number;
  /** Writes under way: an idle sweep never closes a file being written. */
  writing: number;
}

class FileSink implements Sink {
  private readonly files = new Map<string, OpenFile>();
  private readonly opening = new Map<string, Promise<OpenFile>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly openFiles;

  constructor(
    private readonly options: FileOptions,
    private readonly path: EventTemplate,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
  ) {
    this.openFiles = env.telemetry.gauge('open_files');
    const idleMs = options.idle_timeout_secs * 1000;
    this.sweeper = setInterval(() => this.closeIdle(idleMs), Math.min(idleMs, 1000)).unref();
  }

  /** With one path for all events, every batch is encoded whole (one write each): a transform in front may
   * encode it. */
  get batchEncoder(): SinkEncoder | undefined {
    return this.path.fixedText !== undefined ? this.encoder : undefined;
  }

  /** Acknowledged once appended: what the process wrote survives its being killed. */
  async write(batch: EventBatch): Promise<void> {
    const groups = this.path.group(batch, this.env);
    const appended = await Promise.all([...groups].map(([path, events]) => this.append(path, events)));
    // Written (or never to be): the batch's bytes are not needed any more.
    releaseBytes(batch);
    batch.finalizer?.release(appended.every(Boolean) ? 'delivered' : 'errored');
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled(this.opening.values());
    await Promise.all([...this.files.keys()].map((path) => this.closeFile(path)));
  }

  /** Whether the events were written (a failure is counted and logged). */
  private async append(path: string, events: EventBatch): Promise<boolean> {
    try {
      const bytes = await compress(this.options.compression, this.encoder.encode(events));
      if (bytes.length === 0) return true;
      const file = await this.file(path);
      file.writing++;
      try {
        await file.handle.appendFile(bytes);
      } finally {
        file.writing--;
        file.lastWrite = performance.now();
      }
      this.env.telemetry.sentRaw(bytes.length);
      return true;
    } catch (error) {
      this.env.telemetry.error('io_failed', 'sending');
      this.env.telemetry.discarded(events.count, false);
      this.env.log.error(`Failed writing to ${path}: ${error instanceof Error ? error.message : String(error)}`, {
        error_type: 'io_failed',
        internal_log_rate_key: 'io_failed',
        stage: 'sending',
      });
      // The next write opens the file anew.
      await this.closeFile(path);
      return false;
    }
  }

  /** The open file of a path, opened (directories created) on first use; files are appended to. */
  private file(path: string): OpenFile | Promise<OpenFile> {
    const file = this.files.get(path);
    if (file !== undefined) return file;
    let opening = this.opening.get(path);
    if (opening === undefined) {
      opening = mkdir(dirname(path), { recursive: true })
        .then(() => open(path, 'a'))
        .then((handle) => {
          const file = { handle, lastWrite: performance.now(), writing: 0 };
          this.files.set(path, file);
          this.openFiles.set(this.files.size);
          return file;
        })
        .finally(() => this.opening.delete(path));
      this.opening.set(path, opening);
    }
    return opening;
  }

  /** Closes the files not written for `idleMs`; decided synchronously, so no write starts on a closing file. */
  private closeIdle(idleMs: number): void {
    const now = performance.now();
    for (const [path, file] of this.files) {
      if (file.writing === 0 && now - file.lastWrite >= idleMs) void this.closeFile(path);
    }
  }

  private async closeFile(path: string): Promise<void> {
    const file = this.files.get(path);
    if (file === undefined) return;
    this.files.delete(path);
    this.openFiles.set(this.files.size);
    await file.handle.close().catch((error: Error) => this.env.log.error(`Failed closing ${path}: ${error.message}`));
  }
}

const file: SinkDefinition<FileOptions> = {
  kind: 'sink',
  type: 'file',
  description: 'Output observability events into files.',
  options,
  inputs: () => ['log', 'metric', 'trace'],
  build: async (parsed, env) => {
    const timezone = parsed.timezone ?? env.globals.timezone;
    const path = await EventTemplate.build('path', parsed.path, env, { timezone });
    const encoder = new SinkEncoder(
      encodeOptions(parsed.encoding, parsed.framing, 'stream', env.globals.log_schema.message_key),
      env,
    );
    return new FileSink(parsed, path, encoder, env);
  },
};

export default file;
