// The `file` sink: events appended to files whose path is a template (`{{ field }}`, strftime). The template
// runs in wasm as a remap program over each batch; events go to their file grouped, one open handle per
// path, closed after `idle_timeout_secs` without a write. With compression, each write is one gzip member
// or zstd frame: the file stays a valid stream after every write, and appending to it keeps it valid.

import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { BatchFlag, compile, decodeOutput, type Program } from '../../../runtime/index.js';
import { BatchReader, BatchWriter } from '../../../runtime/engine.js';
import { templateOption, templateToRemap } from '../../config/template.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';
import { compress } from '../support/compression.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';

const options = z.strictObject({
  path: templateOption(),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
  compression: z.enum(['none', 'gzip', 'zstd']).default('none'),
  idle_timeout_secs: z.number().int().positive().default(30),
  timezone: z.string().optional(),
});

type FileOptions = z.infer<typeof options>;

/** Where each event of a batch goes: one path for all, or per event (undefined: it could not be rendered). */
type Destinations = { path: string } | { paths: Array<string | undefined> };

/** Renders the `path` template for the events of a batch. */
class PathTemplate {
  private constructor(
    private readonly fixed: string | undefined,
    private readonly program: Program | undefined,
  ) {}

  static async build(template: string, env: ComponentEnv, timezone: string | undefined): Promise<PathTemplate> {
    const { source, isDynamic } = templateToRemap(template, {
      timestampKey: env.globals.log_schema.timestamp_key,
      timezone,
    });
    if (!isDynamic) return new PathTemplate(template, undefined);
    return new PathTemplate(undefined, await compile(source, { timezone }));
  }

  /** The same path for every event. */
  get isFixed(): boolean {
    return this.fixed !== undefined;
  }

  /** The rendered paths; a failure (e.g. a missing field) is counted, logged, and leaves the event out. */
  render(batch: EventBatch, env: ComponentEnv): Destinations {
    if (this.fixed !== undefined) return { path: this.fixed };
    const input = batch.bytes.slice();
    new DataView(input.buffer).setUint16(6, BatchFlag.RESULTS, true);
    const paths = decodeOutput(this.program!.runBatch(input)).map((record) => {
      if (record.outcome === 'kept' && typeof record.result === 'string') return record.result;
      const message =
        record.outcome === 'error' || record.outcome === 'aborted'
          ? record.message
          : 'the path did not render to a string';
      env.telemetry.error('template_failed', 'processing');
      env.telemetry.discarded(1, false);
      env.log.error(`Failed to render template for "path": ${message}. Event dropped.`, {
        error_type: 'template_failed',
        internal_log_rate_key: 'template_failed',
        stage: 'processing',
      });
      return undefined;
    });
    return { paths };
  }
}

/** The events of a batch grouped by the file they go to. */
function groupByPath(batch: EventBatch, destinations: Destinations): Map<string, EventBatch> {
  if ('path' in destinations) return new Map([[destinations.path, batch]]);
  const writers = new Map<string, BatchWriter>();
  for (const { index, record } of new BatchReader(batch.bytes)) {
    const path = destinations.paths[index];
    if (path === undefined) continue;
    let writer = writers.get(path);
    if (writer === undefined) writers.set(path, (writer = new BatchWriter()));
    writer.appendRaw(record);
  }
  return new Map([...writers].map(([path, writer]) => [path, toBatch(writer.finish())]));
}

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
    private readonly path: PathTemplate,
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
    return this.path.isFixed ? this.encoder : undefined;
  }

  /** Acknowledged once appended: what the process wrote survives its being killed. */
  async write(batch: EventBatch): Promise<void> {
    const groups = groupByPath(batch, this.path.render(batch, this.env));
    const appended = await Promise.all([...groups].map(([path, events]) => this.append(path, events)));
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
    const path = await PathTemplate.build(parsed.path, env, timezone);
    const encoder = new SinkEncoder(
      encodeOptions(parsed.encoding, parsed.framing, 'stream', env.globals.log_schema.message_key),
      env,
    );
    return new FileSink(parsed, path, encoder, env);
  },
};

export default file;
