// Sources' `decoding` and `framing` options (Vector's names and shapes) and the decoder every byte-reading
// source uses: bytes in, batches of at most `env.chunkSize` events out, through the codec module. A stream
// keeps its unfinished frame for the next chunk; datagrams and request bodies are decoded whole.

import type { Readable } from 'node:stream';
import { encode as encodeValue } from '../../../abi/codec.js';
import { z } from 'zod';
import {
  CodecModule,
  parseFieldPath,
  type DecodeFraming,
  type DecodeOptions,
  type LogNamespace,
} from '../../../runtime/engine.js';
import { concatBatches, splitBatch, type EventBatch, type EventKind } from '../../topology/batch.js';
import type { ComponentEnv, SourceContext } from '../component.js';
import type { ComponentTelemetry } from '../../telemetry/component.js';
import type { Logger } from '../../log.js';

const lossy = z.strictObject({ lossy: z.boolean().default(true) }).optional();

/** `decoding` without its default: the codec and its options. */
export const decodingObject = z.strictObject({
  codec: z.enum(['bytes', 'json', 'syslog', 'native_json']).default('bytes'),
  json: lossy,
  syslog: lossy,
  native_json: lossy,
});

/** `decoding`, Vector's default codec `bytes` when absent. */
export const decodingSchema = decodingObject.default({ codec: 'bytes' });
export type DecodingConfig = z.infer<typeof decodingObject>;

/** Event kinds a decoder can produce: `native_json` carries its kind, the others make logs. */
export function decodedKinds(decoding: DecodingConfig): EventKind[] {
  return decoding.codec === 'native_json' ? ['log', 'metric', 'trace'] : ['log'];
}

const maxLength = z.number().int().positive().optional();
const oversizedAction = z.enum(['drop', 'truncate']).default('drop');

/** `framing`: `method` and that method's options, nested under its name as Vector has them. */
export const framingSchema = z
  .discriminatedUnion('method', [
    z.strictObject({ method: z.literal('bytes') }),
    z.strictObject({
      method: z.literal('newline_delimited'),
      newline_delimited: z.strictObject({ max_length: maxLength, oversized_action: oversizedAction }).optional(),
    }),
    z.strictObject({
      method: z.literal('character_delimited'),
      character_delimited: z.strictObject({
        delimiter: z
          .string()
          .refine((text) => text.length === 1 && text.charCodeAt(0) < 0x80, 'must be one ASCII character'),
        max_length: maxLength,
        oversized_action: oversizedAction,
      }),
    }),
    z.strictObject({
      method: z.literal('length_delimited'),
      length_delimited: z
        .strictObject({
          length_field_is_big_endian: z.boolean().default(true),
          length_field_length: z.number().int().min(1).max(8).default(4),
          length_field_offset: z.number().int().nonnegative().default(0),
          max_frame_length: z.number().int().positive().default(8388608),
        })
        .optional(),
    }),
    z.strictObject({
      method: z.literal('octet_counting'),
      octet_counting: z.strictObject({ max_length: maxLength }).optional(),
    }),
  ])
  .optional();
export type FramingConfig = z.infer<typeof framingSchema>;

/** The codec module's framing for a `framing` option. */
function decodeFraming(framing: NonNullable<FramingConfig>): DecodeFraming {
  switch (framing.method) {
    case 'bytes':
      return { method: 'bytes' };
    case 'newline_delimited':
      return { method: 'newline_delimited', ...framing.newline_delimited };
    case 'character_delimited':
      return { method: 'character_delimited', ...framing.character_delimited };
    case 'length_delimited':
      return { method: 'length_delimited', ...framing.length_delimited };
    case 'octet_counting':
      return { method: 'octet_counting', ...framing.octet_counting };
  }
}

/** What a decoder needs: the codec module's options but the per-call ones. */
export type DecodeSettings = Omit<DecodeOptions, 'stamp' | 'eof' | 'discard'>;

/** Settings from the options, with the source's default framing when `framing` is absent. */
export function decodeSettings(
  decoding: DecodingConfig,
  framing: FramingConfig,
  defaultFraming: DecodeFraming,
  env: ComponentEnv,
  logNamespace: LogNamespace,
): DecodeSettings {
  const codec = decoding.codec;
  const codecOptions = codec === 'bytes' ? undefined : decoding[codec];
  return {
    framing: framing ? decodeFraming(framing) : defaultFraming,
    codec,
    lossy: codecOptions?.lossy ?? true,
    messageKey: env.globals.log_schema.message_key || 'message',
    logNamespace,
  };
}

/** Vector's default for stream sources: newline delimited whatever the codec. */
export const NEWLINE_FRAMING: DecodeFraming = { method: 'newline_delimited' };
/** Vector's default for message-based sources (datagrams, request bodies): the whole message is a frame. */
export const BYTES_FRAMING: DecodeFraming = { method: 'bytes' };

/** `newline_delimited`'s delimiter, and the end of octet counting's uncounted lines. */
const NEWLINE = 0x0a;

// ---- log namespace and stamps --------------------------------------------------------------------------

/** A source's `log_namespace` (Vector's name): its own choice over the global `schema.log_namespace`. */
export const logNamespaceOption = z.boolean().optional();

/** The namespace of a source's events: its `log_namespace` when set, else the global `schema.log_namespace`. */
export function logNamespaceOf(env: ComponentEnv, option: boolean | undefined): LogNamespace {
  return (option ?? env.globals.schema.log_namespace) ? 'vector' : 'legacy';
}

/** Fields a source adds to its log events, as nested objects keyed by path: in the legacy namespace added to
 * each event where absent, in Vector's each event's metadata. */
export type Stamp = Record<string, unknown>;

/** Which source stamps, and in which namespace. */
export interface StampOrigin {
  readonly sourceType: string;
  readonly logNamespace: LogNamespace;
}

/** The segments of the paths stamps go at (`log_schema` keys, a source's fields: a few, each parsed once;
 * the opentelemetry source stamps eight per record). */
const STAMP_PATHS = new Map<string, ReturnType<typeof parseFieldPath>>();

/** Vector's `insert_source_metadata`: `value` at `legacyKey` of the event (a `log_schema`-style path; empty
 * or undefined: nowhere) in the legacy namespace, at `%<source type>.<key…>` in Vector's. */
export function stampSource(
  stamp: Stamp,
  origin: StampOrigin,
  legacyKey: string | undefined,
  key: readonly string[],
  value: unknown,
): Stamp {
  if (origin.logNamespace === 'legacy') return stampAt(stamp, legacyKey, value);
  let object = (stamp[origin.sourceType] ??= {}) as Stamp;
  for (const segment of key.slice(0, -1)) object = (object[segment] ??= {}) as Stamp;
  object[key[key.length - 1]!] = value;
  return stamp;
}

/** Adds `value` at `path` (a `log_schema`-style path; empty = nowhere) to `stamp`. */
export function stampAt(stamp: Stamp, path: string | undefined, value: unknown): Stamp {
  if (!path) return stamp;
  let segments = STAMP_PATHS.get(path);
  if (segments === undefined) {
    if (STAMP_PATHS.size >= 1000) STAMP_PATHS.clear();
    STAMP_PATHS.set(path, (segments = parseFieldPath(path)));
  }
  let object = stamp;
  segments.forEach((segment, i) => {
    const key = String(segment);
    if (i === segments.length - 1) object[key] = value;
    else object = (object[key] ??= {}) as Stamp;
  });
  return stamp;
}

/** The stamp every source gives its events: source type, the current time and the host name. Legacy: at
 * `log_schema`'s keys, the host at `hostKey` (default `log_schema.host_key`; empty: none). Vector's namespace:
 * `%vector.source_type`, `%vector.ingest_timestamp` and `%<source type>.host`. `hostKey` null: no host in
 * either (a source whose events Vector does not give one). */
export function sourceStamp(
  env: ComponentEnv,
  origin: StampOrigin,
  hostKey?: string | null,
  host: string = env.hostname,
): Stamp {
  const schema = env.globals.log_schema;
  const stamp: Stamp =
    origin.logNamespace === 'vector'
      ? { vector: { source_type: origin.sourceType, ingest_timestamp: new Date() } }
      : stampAt(stampAt({}, schema.source_type_key, origin.sourceType), schema.timestamp_key, new Date());
  if (hostKey === null) return stamp;
  return stampSource(stamp, origin, hostKey ?? schema.host_key, ['host'], host);
}

// ---- decoding -----------------------------------------------------------------------------------------

/** Frames of any size, each behind its 4-byte big-endian length: how `decodeMessages` joins messages. */
const LENGTH_PREFIXED: DecodeFraming = {
  method: 'length_delimited',
  length_field_length: 4,
  max_frame_length: 0xffffffff,
};

/** One stream's decoding (a connection, stdin): chunks in, the batches of the frames they complete out. */
export interface ChunkStream {
  push(chunk: Uint8Array, stamp: Stamp): EventBatch[];
  /** The stream ended: its unfinished frame is the last. */
  end(stamp: Stamp): EventBatch[];
}

/** What the listeners (support/listeners.ts) need of a decoder: `SourceDecoder`, or a source's own parser
 * (statsd's). */
export interface MessageDecoder {
  stream(): ChunkStream;
  /** Whole messages (datagrams), each decoded on its own. */
  decodeMessages(messages: ReadonlyArray<{ bytes: Uint8Array; stamp: Stamp }>): EventBatch[];
}

/** A source's decoder: one codec module instance, shared by all its streams, made when first needed (a
 * source whose consumer decodes its frames needs none). */
export class SourceDecoder implements MessageDecoder {
  private instance: CodecModule | undefined;
  /** The stamp `frames` encoded last. */
  private lastStamp: { stamp: Stamp; bytes: Uint8Array } | undefined;

  constructor(
    private readonly env: ComponentEnv,
    readonly settings: DecodeSettings,
  ) {}

  private get codec(): CodecModule {
    return (this.instance ??= new CodecModule({ timezone: this.env.globals.timezone }));
  }

  /** A stream of chunks (a connection, stdin): frames may span chunks. When the source's one consumer
   * decodes frames itself, the stream sends whole frames. `flushPast`: an unfinished frame longer than this
   * is decoded as it is (exec's `maximum_buffer_size_bytes`). */
  stream(flushPast?: number): FrameStream {
    const framing = this.settings.framing;
    const delimited =
      framing.method === 'newline_delimited'
        ? { delimiter: NEWLINE, maxLength: framing.max_length }
        : framing.method === 'character_delimited'
          ? { delimiter: framing.delimiter.charCodeAt(0), maxLength: framing.max_length }
          : undefined;
    return new FrameStream(this, delimited, this.env.consumerDecodes === true, flushPast);
  }

  /** A whole message (a datagram, a request body), counted as received bytes; batches of at most
   * `chunkSize` events. */
  decodeMessage(bytes: Uint8Array, stamp: Stamp): EventBatch[] {
    return this.decodeChecked(bytes, stamp).batches;
  }

  /** `decodeMessage`, also returning why frames failed (they are counted and logged too). */
  decodeChecked(bytes: Uint8Array, stamp: Stamp): { batches: EventBatch[]; errors: string[] } {
    this.env.telemetry.receivedRaw(bytes.byteLength);
    const { batches, errors } = this.decode(bytes, stamp, true, 0);
    return { batches, errors };
  }

  /** Decodes messages into as few batches as `chunkSize` allows. With `bytes` framing (a message is a frame),
   * they are decoded in one call, as length-prefixed frames, each with its stamp: one call per message costs
   * more than decoding it. */
  decodeMessages(messages: ReadonlyArray<{ bytes: Uint8Array; stamp: Stamp }>): EventBatch[] {
    if (messages.length === 1 || this.settings.framing.method !== 'bytes')
      return this.rebatched(messages.flatMap(({ bytes, stamp }) => this.decodeMessage(bytes, stamp)));
    return this.rebatched(this.decodeFrames(messages));
  }

  /** `decodeMessages` of texts sharing one stamp (generated lines): with `bytes` framing they are written
   * straight into one call's input, without a buffer each. */
  decodeTexts(texts: readonly string[], stamp: Stamp): EventBatch[] {
    if (this.settings.framing.method !== 'bytes')
      return this.decodeMessages(texts.map((text) => ({ bytes: Buffer.from(text), stamp })));
    let size = 0;
    for (const text of texts) size += 4 + Buffer.byteLength(text);
    const input = Buffer.allocUnsafe(size);
    let at = 0;
    let payload = 0;
    // An empty text makes no event, as in decodeFrames.
    for (const text of texts) {
      if (text.length === 0) continue;
      const length = input.write(text, at + 4);
      input.writeUInt32BE(length, at);
      at += 4 + length;
      payload += length;
    }
    this.env.telemetry.receivedRaw(payload);
    return this.rebatched(this.decode(input.subarray(0, at), stamp, true, 0, LENGTH_PREFIXED).batches);
  }

  /** Decoded batches joined and split again into batches of `chunkSize` events; empty ones left out. */
  private rebatched(decoded: EventBatch[]): EventBatch[] {
    const nonEmpty = decoded.filter((batch) => batch.count > 0);
    return nonEmpty.length === 0 ? [] : splitBatch(concatBatches(nonEmpty), this.env.chunkSize);
  }

  /** Whole messages as frames, in one call: with their one stamp, or each with its own. An empty message
   * makes no event (as with `bytes` framing), where an empty length-prefixed frame would. */
  private decodeFrames(messages: ReadonlyArray<{ bytes: Uint8Array; stamp: Stamp }>): EventBatch[] {
    const frames = messages.filter(({ bytes }) => bytes.byteLength > 0);
    if (frames.length === 0) return [];
    const payload = frames.reduce((total, { bytes }) => total + bytes.byteLength, 0);
    const input = new Uint8Array(payload + 4 * frames.length);
    const view = new DataView(input.buffer);
    let at = 0;
    for (const { bytes } of frames) {
      view.setUint32(at, bytes.byteLength);
      input.set(bytes, at + 4);
      at += 4 + bytes.byteLength;
    }
    this.env.telemetry.receivedRaw(payload);
    const stamp = frames[0]!.stamp;
    const shared = frames.every((frame) => frame.stamp === stamp);
    const stamps = shared ? undefined : frames.map((frame) => frame.stamp);
    return this.decode(input, stamp, true, 0, LENGTH_PREFIXED, stamps).batches;
  }

  /** @internal Decodes `input`; frames that fail are counted and logged, the rest go on. */
  decode(
    input: Uint8Array,
    stamp: Stamp,
    eof: boolean,
    discard: number,
    framing: DecodeFraming = this.settings.framing,
    /** Each frame's own stamp, instead of `stamp`. */
    frameStamps?: readonly Stamp[],
  ): { batches: EventBatch[]; consumed: number; discard: number; needed: number; errors: string[] } {
    const options = { ...this.settings, framing, eof, discard };
    const result = this.codec.decode(input, frameStamps ? { ...options, frameStamps } : { ...options, stamp });
    reportDecodeErrors(
      this.env.telemetry,
      this.env.log,
      result.errors.map((error) => error.message),
    );
    const batches =
      result.count === 0 ? [] : splitBatch({ bytes: result.batch, count: result.count }, this.env.chunkSize);
    return {
      batches,
      consumed: result.consumed,
      discard: result.discard,
      needed: result.needed,
      errors: result.errors.map((error) => error.message),
    };
  }

  /** @internal Whole frames, undecoded, for the consumer to decode; `count` of them (an estimate until the
   * consumer decoded them). `discard`: the framing state they start in (`DecodeOptions.discard`). */
  frames(bytes: Uint8Array, stamp: Stamp, count: number, discard = 0): EventBatch {
    // Encoded here, once per stamp (a read's batches share it): the consumer decodes in a thread where making
    // the descriptor is cold code, per batch.
    if (this.lastStamp?.stamp !== stamp) this.lastStamp = { stamp, bytes: encodeValue(stamp) };
    const frames = { ...this.settings, stampBytes: this.lastStamp.bytes, eof: true };
    return { bytes, count, frames: discard === 0 ? frames : { ...frames, discard } };
  }

  /** @internal The framing alone of a stream's input (`CodecModule.split`), starting in state `discard`. */
  split(input: Uint8Array, discard: number): ReturnType<CodecModule['split']> {
    return this.codec.split(input, { ...this.settings, eof: false, discard });
  }

  /** @internal Events in one batch (`--chunk-size-events`). */
  get batchEvents(): number {
    return this.env.chunkSize;
  }

  /** @internal */
  countReceived(bytes: number): void {
    this.env.telemetry.receivedRaw(bytes);
  }
}

/** Counts and logs a source's frames that failed to decode (wherever they were decoded). */
export function reportDecodeErrors(telemetry: ComponentTelemetry, log: Logger, errors: readonly string[]): void {
  if (errors.length === 0) return;
  telemetry.error('parser_failed', 'processing', errors.length);
  for (const error of errors)
    log.error(`Failed deserializing frame: ${error}`, {
      error_type: 'parser_failed',
      stage: 'processing',
      internal_log_rate_key: 'parser_failed',
    });
}

/** One stream's framing state: the unfinished frame and the framer's discard state. With a delimited
 * framing the stream finds the frames' ends itself, searching each chunk once: the codec sees each byte once,
 * and an unfinished frame is never longer than `max_length`. With a length-prefixed one (octet counting,
 * length_delimited) the codec says how many bytes the unfinished frame needs, and sees it again only once
 * they are read: a frame read in many chunks is copied and framed once, not once per chunk. */
export class FrameStream implements ChunkStream {
  /** The unfinished frame, in the pieces read so far (joined once it is complete: a long line read in many
   * chunks is copied once, not once per chunk). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private discard = 0;
  /** Without a delimited framing: what the codec said the unfinished frame needs (`DecodeResult.needed`). */
  private needed = 0;

  /** `sendFrames`: send whole delimited frames for the consumer to decode. */
  constructor(
    private readonly decoder: SourceDecoder,
    private readonly delimited: { delimiter: number; maxLength?: number } | undefined,
    private readonly sendFrames: boolean,
    private readonly flushPast = Infinity,
  ) {}

  /** Decodes the complete frames of what was read so far plus `chunk`; keeps the rest. */
  push(chunk: Uint8Array, stamp: Stamp): EventBatch[] {
    this.decoder.countReceived(chunk.byteLength);
    if (this.delimited === undefined) {
      if (this.pendingBytes > 0 && !this.completes(chunk)) {
        this.keep(chunk);
        return this.pendingBytes > this.flushPast ? this.end(stamp) : [];
      }
      const input = this.takePending(chunk, 0, chunk.length);
      const batches = this.sendFrames ? this.whole(input, stamp) : this.run(input, stamp, false);
      return this.pendingBytes > this.flushPast ? [...batches, ...this.end(stamp)] : batches;
    }
    const { delimiter, maxLength } = this.delimited;
    let from = 0;
    if (this.discard !== 0) {
      // The rest of a frame dropped for its length is skipped up to its delimiter, not kept.
      const first = chunk.indexOf(delimiter);
      if (first === -1) return [];
      from = first + 1;
      this.discard = 0;
    }
    const last = chunk.lastIndexOf(delimiter);
    if (last < from) {
      this.keep(from === 0 ? chunk : new Uint8Array(chunk.subarray(from)));
      // Past `max_length` the codec drops (or cuts) the frame now and skips its rest.
      if (maxLength !== undefined && this.pendingBytes > maxLength)
        return this.run(this.takePending(chunk, 0, 0), stamp, false);
      return this.pendingBytes > this.flushPast ? this.end(stamp) : [];
    }
    const batches = this.sendFrames
      ? this.frames(chunk, from, last + 1, delimiter, stamp)
      : this.run(this.takePending(chunk, from, last + 1), stamp, false);
    // A copy of a chunk's tail, so it does not keep the whole chunk alive.
    if (last + 1 < chunk.length) this.keep(new Uint8Array(chunk.subarray(last + 1)));
    return batches;
  }

  /** Whether `chunk` can complete the unfinished frame of a framing without delimiter: it brings the bytes the
   * frame's header asks for, or the newline ending an uncounted line (octet counting). */
  private completes(chunk: Uint8Array): boolean {
    return this.needed === 0 ? chunk.includes(NEWLINE) : this.pendingBytes + chunk.byteLength >= this.needed;
  }

  /** The frames ending in `chunk[from, to)`, in batches of at most `batchEvents` frames, each copied once out
   * of the pieces it spans (a chunk that is whole frames and nothing pending goes as it is: streams hand
   * over a new buffer per chunk). */
  private frames(chunk: Uint8Array, from: number, to: number, delimiter: number, stamp: Stamp): EventBatch[] {
    const batches: EventBatch[] = [];
    const limit = this.decoder.batchEvents;
    let start = from;
    let count = 0;
    for (let at = chunk.indexOf(delimiter, from); at >= 0 && at < to; at = chunk.indexOf(delimiter, at + 1)) {
      if (++count === limit) {
        batches.push(this.decoder.frames(this.takePending(chunk, start, at + 1), stamp, count));
        [start, count] = [at + 1, 0];
      }
    }
    if (count > 0) batches.push(this.decoder.frames(this.takePending(chunk, start, to), stamp, count));
    return batches;
  }

  /**
   * Without a delimiter to look for (octet counting, length prefixes): the complete frames of `input`, found by
   * the codec's framing alone (nothing decoded), go as one batch that starts in the framing state they were
   * read in; the rest is kept.
   */
  private whole(input: Uint8Array, stamp: Stamp): EventBatch[] {
    const split = this.decoder.split(input, this.discard);
    // Not even the input fits in the codec's memory: decoding it here reports it as a failed frame.
    if (split === undefined) return this.run(input, stamp, false);
    const { frames, consumed } = split;
    const batches = frames > 0 ? [this.decoder.frames(input.subarray(0, consumed), stamp, frames, this.discard)] : [];
    this.discard = split.discard;
    this.needed = split.needed;
    if (consumed < input.length) this.keep(new Uint8Array(input.subarray(consumed)));
    return batches;
  }

  /** The stream ended: what is left is the last frame. */
  end(stamp: Stamp): EventBatch[] {
    if (this.pendingBytes === 0) return [];
    const rest = this.takePending(new Uint8Array(0), 0, 0);
    if (this.sendFrames) return [this.decoder.frames(rest, stamp, 1, this.discard)];
    return this.run(rest, stamp, true);
  }

  private run(input: Uint8Array, stamp: Stamp, eof: boolean): EventBatch[] {
    const { batches, consumed, discard, needed } = this.decoder.decode(input, stamp, eof, this.discard);
    this.discard = discard;
    this.needed = needed;
    // A copy, so the rest does not keep the whole chunk alive.
    if (!eof && consumed < input.length) this.keep(new Uint8Array(input.subarray(consumed)));
    return batches;
  }

  private keep(piece: Uint8Array): void {
    this.pending.push(piece);
    this.pendingBytes += piece.byteLength;
  }

  /** The pending pieces followed by `chunk[from, to)`, as one array (`chunk`'s own range when nothing is
   * pending and it is the whole chunk); nothing is pending afterwards. */
  private takePending(chunk: Uint8Array, from: number, to: number): Uint8Array {
    if (this.pendingBytes === 0 && from === 0 && to === chunk.length) return chunk;
    const joined = new Uint8Array(this.pendingBytes + to - from);
    let at = 0;
    for (const piece of this.pending) {
      joined.set(piece, at);
      at += piece.byteLength;
    }
    joined.set(chunk.subarray(from, to), at);
    this.pending = [];
    this.pendingBytes = 0;
    return joined;
  }
}

/**
 * Reads `readable` to its end through `stream`, sending each read's batches before reading on (a pending
 * `send` leaves the stream paused: backpressure reaches the writer). Each read takes everything the stream
 * buffered meanwhile (up to its high water mark), so a busy pipeline gets fewer, larger batches. Stops
 * reading when `stop` aborts; what was read is still sent.
 */
export async function pumpReadable(
  readable: Readable,
  stream: ChunkStream,
  context: SourceContext,
  stamp: () => Stamp,
  stop: AbortSignal = context.shutdown,
): Promise<void> {
  const stopReading = () => readable.destroy();
  stop.addEventListener('abort', stopReading, { once: true });
  // Errors are read from `readable.errored` (an error emitted while a send waits must not go unhandled).
  const ignore = () => {};
  readable.on('error', ignore);
  try {
    for (let chunk = await readBuffered(readable); chunk !== null; chunk = await readBuffered(readable)) {
      for (const batch of stream.push(chunk, stamp())) await context.send(batch);
    }
  } catch (error) {
    // Destroying the stream to stop is not a failure.
    if (!stop.aborted) throw error;
  } finally {
    stop.removeEventListener('abort', stopReading);
    readable.off('error', ignore);
  }
  for (const batch of stream.end(stamp())) await context.send(batch);
}

/** All the bytes `readable` holds, once it holds some; null at its end (or once destroyed); throws its error. */
async function readBuffered(readable: Readable): Promise<Uint8Array | null> {
  for (;;) {
    if (readable.errored) throw readable.errored;
    const chunk = readable.read() as Uint8Array | null;
    if (chunk !== null) return chunk;
    if (readable.readableEnded || readable.destroyed) return null;
    await new Promise<void>((resolve) => {
      const ready = () => {
        readable.off('readable', ready).off('end', ready).off('close', ready);
        resolve();
      };
      readable.on('readable', ready).on('end', ready).on('close', ready);
    });
  }
}
