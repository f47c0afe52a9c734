// The codec module (dist/codec.wasm, docs/abi.md §9): sources' framing and decoders, sinks' encoders and
// framing, in wasm. One instance per component that uses it; each call copies its input into the arena,
// reads the result out and resets the arena.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encode as encodeValue } from '../abi/codec.js';
import { BoundedCache } from '../abi/bounded-cache.js';
import { programGroupCount, regexProgram } from '../abi/regex-program.js';
import { useRegexVm, type RegexVm, type RustRegex } from '../abi/regex.js';
import {
  CsvQuoteStyle,
  DecodeDescriptor,
  DecodeFlag,
  Decoder,
  DecodeMethod,
  EncodeDescriptor,
  EncodeFlag,
  Encoder,
  EncodeMethod,
  EncodeTimestamp,
  NO_LIMIT,
} from '../abi/wire/codec-descriptors.js';
import { PathSegmentKind } from '../abi/wire/path.js';
import { ArenaInstance, DEFAULT_MEMORY_LIMIT, setMemoryLimit, type ArenaExports, type OutputOptions } from './arena.js';
import { moduleImports, type InstanceRef } from './imports.js';
import { stderrLog, systemClock } from './services.js';
import { BatchRecords, joinBatch, recordBytes, recoverFromTrap, type Attempt } from './trap-recovery.js';

// ---- options --------------------------------------------------------------------------------------------

type OversizedAction = 'drop' | 'truncate';

/** Vector's `framing` of sources (`method` and that method's options). */
export type DecodeFraming =
  | { method: 'bytes' }
  | { method: 'newline_delimited'; max_length?: number; oversized_action?: OversizedAction }
  | { method: 'character_delimited'; delimiter: string; max_length?: number; oversized_action?: OversizedAction }
  | {
      method: 'length_delimited';
      length_field_length?: number;
      length_field_is_big_endian?: boolean;
      length_field_offset?: number;
      max_frame_length?: number;
    }
  | { method: 'octet_counting'; max_length?: number };

type DecoderCodec = 'bytes' | 'json' | 'syslog' | 'native_json';

/** Vector's `schema.log_namespace`: `legacy` (false) puts what a source adds at the event's root, `vector`
 * (true) in its metadata. */
export type LogNamespace = 'legacy' | 'vector';

export interface DecodeOptions {
  framing: DecodeFraming;
  codec: DecoderCodec;
  /** Invalid UTF-8 read as U+FFFD (json, native_json, syslog); false makes it an error. Default true. */
  lossy?: boolean;
  /** `log_schema.message_key`: where `bytes` puts the frame. Default `message`. */
  messageKey?: string;
  /** Fields every log event gets where it lacks them (recursively into nested objects). */
  stamp?: Record<string, unknown>;
  /** `stamp` already encoded (as a source sends it with frames for another thread to decode). */
  stampBytes?: Uint8Array;
  /** Instead of `stamp`: each frame's own, in order (messages with fields of their own, decoded in one call). */
  frameStamps?: ReadonlyArray<Record<string, unknown>>;
  /** Syslog: the parsed `hostname` also goes here (the syslog source's host key), before the stamp. */
  hostnameKey?: string;
  /** `vector`: Vector's log namespace, where the payload is the event whatever its type and `stamp` is each
   * log event's metadata. Default `legacy`. */
  logNamespace?: LogNamespace;
  /** The syslog source's decoder: in Vector's namespace, syslog's parsed fields go to `%syslog`. */
  syslogSource?: boolean;
  /** The input is the end of the stream: its last, undelimited bytes are a frame too. */
  eof?: boolean;
  /** Framing state: the previous call's `discard`, when this input continues its stream. */
  discard?: number;
}

export interface DecodeResult {
  /** An input batch (docs/abi.md §2). */
  batch: Uint8Array;
  count: number;
  /** Bytes of the input up to the end of its last complete frame; keep the rest for the next call. */
  consumed: number;
  /** Framing state to pass as `discard` with the next input of the stream. */
  discard: number;
  /** Bytes the unconsumed rest must reach before its frame is complete (a length-prefixed frame's header,
   * then header and body); 0 when the frame ends at a delimiter (octet counting's uncounted lines: newline). */
  needed: number;
  /** Frames that failed: index of the frame in this input, and why. */
  errors: Array<{ frame: number; message: string }>;
}

type EncoderCodec = 'json' | 'text' | 'logfmt' | 'csv' | 'raw_message' | 'native_json';
type TimestampFormat = 'rfc3339' | 'unix' | 'unix_ms' | 'unix_us' | 'unix_ns' | 'unix_float';
type QuoteStyle = 'necessary' | 'always' | 'never' | 'non_numeric';

/** Vector's `framing` of sinks. */
export type EncodeFraming =
  | { method: 'bytes' }
  | { method: 'newline_delimited' }
  | { method: 'character_delimited'; delimiter: string }
  | {
      method: 'length_delimited';
      length_field_length?: number;
      length_field_is_big_endian?: boolean;
      max_frame_length?: number;
    };

interface CsvOptions {
  fields: string[];
  delimiter?: string;
  quote_style?: QuoteStyle;
  double_quote?: boolean;
  escape?: string;
  quote?: string;
}

/** Vector's `encoding` of sinks, plus the framing (default `newline_delimited`). */
export interface EncodeOptions {
  codec: EncoderCodec;
  json?: { pretty?: boolean };
  csv?: CsvOptions;
  only_fields?: string[];
  except_fields?: string[];
  timestamp_format?: TimestampFormat;
  framing?: EncodeFraming;
  /** `log_schema.message_key`: what `text` and `raw_message` write. Default `message`. */
  messageKey?: string;
}

export interface EncodeResult {
  bytes: Uint8Array;
  /** Events that could not be encoded (left out): index in the batch, and why. */
  errors: Array<{ event: number; message: string }>;
}

// The wire codes of the options' names (abi/wire/codec-descriptors.ts).
const DECODE_METHODS: Readonly<Record<DecodeFraming['method'], DecodeMethod>> = {
  bytes: DecodeMethod.Bytes,
  newline_delimited: DecodeMethod.NewlineDelimited,
  character_delimited: DecodeMethod.CharacterDelimited,
  length_delimited: DecodeMethod.LengthDelimited,
  octet_counting: DecodeMethod.OctetCounting,
};
const DECODERS: Readonly<Record<DecoderCodec, Decoder>> = {
  bytes: Decoder.Bytes,
  json: Decoder.Json,
  syslog: Decoder.Syslog,
  native_json: Decoder.NativeJson,
};
const ENCODERS: Readonly<Record<EncoderCodec, Encoder>> = {
  json: Encoder.Json,
  text: Encoder.Text,
  logfmt: Encoder.Logfmt,
  csv: Encoder.Csv,
  raw_message: Encoder.RawMessage,
  native_json: Encoder.NativeJson,
};
const ENCODE_METHODS: Readonly<Record<EncodeFraming['method'], EncodeMethod>> = {
  bytes: EncodeMethod.Bytes,
  newline_delimited: EncodeMethod.NewlineDelimited,
  character_delimited: EncodeMethod.CharacterDelimited,
  length_delimited: EncodeMethod.LengthDelimited,
};
const TIMESTAMP_FORMATS: Readonly<Record<TimestampFormat, EncodeTimestamp>> = {
  rfc3339: EncodeTimestamp.Rfc3339,
  unix: EncodeTimestamp.Unix,
  unix_ms: EncodeTimestamp.UnixMs,
  unix_us: EncodeTimestamp.UnixUs,
  unix_ns: EncodeTimestamp.UnixNs,
  unix_float: EncodeTimestamp.UnixFloat,
};
const QUOTE_STYLES: Readonly<Record<QuoteStyle, CsvQuoteStyle>> = {
  necessary: CsvQuoteStyle.Necessary,
  always: CsvQuoteStyle.Always,
  never: CsvQuoteStyle.Never,
  non_numeric: CsvQuoteStyle.NonNumeric,
};

/** The code of `name` in `codes`; throws for a name it lacks. */
function codeOf<Code>(codes: Readonly<Record<string, Code>>, name: string, option: string): Code {
  if (!Object.hasOwn(codes, name)) throw new Error(`unknown ${option} ${JSON.stringify(name)}`);
  return codes[name]!;
}

/** A descriptor of `size` bytes: u32 words set at their byte offsets, the others 0. */
function descriptorWords(
  size: number,
  fields: ReadonlyArray<readonly [offset: number, word: number | Ref]>,
): Array<number | Ref> {
  const words = new Array<number | Ref>(size / 4).fill(0);
  for (const [offset, word] of fields) words[offset / 4] = word;
  return words;
}
/** tokio's LengthDelimitedCodec default, Vector's `max_frame_length` default. */
const DEFAULT_MAX_FRAME_LENGTH = 8 * 1024 * 1024;

/** An ASCII character option (`delimiter`, `quote`, `escape`) as its byte. */
function asciiChar(option: string, text: string): number {
  if (text.length !== 1 || text.charCodeAt(0) > 0x7f)
    throw new Error(`${option} must be one ASCII character, not ${JSON.stringify(text)}`);
  return text.charCodeAt(0);
}

function lengthFieldLength(n: number | undefined): number {
  const length = n ?? 4;
  if (!Number.isInteger(length) || length < 1 || length > 8)
    throw new Error(`length_field_length must be 1 to 8 bytes, not ${length}`);
  return length;
}

// ---- paths ----------------------------------------------------------------------------------------------

type Segment = string | number;

/**
 * A field path as configurations write it (`.a.b[0]`, `a."b.c"`, `message`) as segments; throws on a
 * malformed path.
 */
export function parseFieldPath(text: string): Segment[] {
  const segments: Segment[] = [];
  const bad = (why: string) => new Error(`invalid field path ${JSON.stringify(text)}: ${why}`);
  let at = text.startsWith('.') ? 1 : 0;
  if (at === text.length) return segments;
  while (at < text.length) {
    if (text[at] === '"') {
      const end = text.indexOf('"', at + 1);
      if (end < 0) throw bad('unterminated quote');
      segments.push(text.slice(at + 1, end));
      at = end + 1;
    } else {
      const match = /^[^.[\]"]+/.exec(text.slice(at));
      if (!match) throw bad(`expected a field name at byte ${at}`);
      segments.push(match[0]);
      at += match[0].length;
    }
    while (text[at] === '[') {
      const match = /^\[(-?\d+)\]/.exec(text.slice(at));
      if (!match) throw bad(`expected an index at byte ${at}`);
      segments.push(Number(match[1]));
      at += match[0].length;
    }
    if (at < text.length) {
      if (text[at] !== '.') throw bad(`expected "." at byte ${at}`);
      at++;
      if (at === text.length) throw bad('it ends with "."');
    }
  }
  return segments;
}

/** Path descriptors by path text: every call needs its options' paths, and configurations name few. */
const pathDescriptors = new Map<string, Uint8Array>();

/** A path descriptor (stdlib-as/path.ts), built once per path text. */
function pathDescriptor(text: string): Uint8Array {
  let descriptor = pathDescriptors.get(text);
  if (descriptor === undefined) {
    descriptor = buildPathDescriptor(text);
    pathDescriptors.set(text, descriptor);
  }
  return descriptor;
}

/** u32 count, then per segment a field or an index. */
function buildPathDescriptor(text: string): Uint8Array {
  const words: number[] = [];
  const segments = parseFieldPath(text);
  words.push(segments.length);
  for (const segment of segments) {
    if (typeof segment === 'number') {
      const index = BigInt.asUintN(64, BigInt(segment)); // i64, low word first
      words.push(PathSegmentKind.Index, Number(index & 0xffffffffn), Number(index >> 32n));
      continue;
    }
    const bytes = Buffer.from(segment, 'utf8');
    const padded = Buffer.alloc((bytes.length + 3) & ~3);
    bytes.copy(padded);
    words.push(PathSegmentKind.Field, bytes.length);
    for (let i = 0; i < padded.length; i += 4) words.push(padded.readUInt32LE(i));
  }
  return new Uint8Array(Uint32Array.from(words).buffer);
}

// ---- the arena blob: descriptor and the data it points at ---------------------------------------------

/** A reference to a part of the blob, resolved to an address once the blob has one. */
export class Ref {
  constructor(readonly offset: number) {}
}

/** Parts of what one call copies into the arena: 4-byte aligned, u32 words may point at other parts. */
export class Blob {
  private readonly parts: Array<{ offset: number; bytes?: Uint8Array; words?: ReadonlyArray<number | Ref> }> = [];
  private size = 0;

  private add(length: number, part: { bytes?: Uint8Array; words?: ReadonlyArray<number | Ref> }): Ref {
    const offset = this.size;
    this.parts.push({ offset, ...part });
    this.size += (length + 3) & ~3;
    return new Ref(offset);
  }
  bytes(bytes: Uint8Array): Ref {
    return this.add(bytes.length, { bytes });
  }
  words(words: ReadonlyArray<number | Ref>): Ref {
    return this.add(words.length * 4, { words });
  }
  /** A path list: u32 count, then the address of each path's descriptor. */
  paths(paths: readonly string[]): Ref {
    return this.words([paths.length, ...paths.map((path) => this.bytes(pathDescriptor(path)))]);
  }

  /** Copies the blob to `base` in `memory`, pointers resolved. */
  writeTo(memory: Uint8Array, base: number): void {
    const view = new DataView(memory.buffer, memory.byteOffset, memory.byteLength);
    for (const { offset, bytes, words } of this.parts) {
      if (bytes) memory.set(bytes, base + offset);
      words?.forEach((word, i) =>
        view.setUint32(base + offset + 4 * i, word instanceof Ref ? base + word.offset : word, true),
      );
    }
  }
  get length(): number {
    return this.size;
  }
}

/** Every frame of the input: the whole range of a decode descriptor. */
const ALL_FRAMES: FrameRange = [0, 0xffffffff];

/** Frames [start, end) of an input, by index: the ones a decode call decodes. */
type FrameRange = readonly [number, number];

/** The decode descriptor of docs/abi.md §9, added to `blob`. */
export function decodeDescriptor(blob: Blob, options: DecodeOptions, frames: FrameRange = ALL_FRAMES): Ref {
  const framing = options.framing;
  const method = codeOf(DECODE_METHODS, framing.method, 'framing method');
  const codec = codeOf(DECODERS, options.codec, 'decoding codec');
  let flags = options.eof ? DecodeFlag.EOF : 0;
  if (options.lossy === false) flags |= DecodeFlag.STRICT_UTF8;
  if (options.logNamespace === 'vector') {
    flags |= DecodeFlag.VECTOR_NAMESPACE;
    if (options.syslogSource) flags |= DecodeFlag.SYSLOG_METADATA;
  }
  let delimiter = 0x0a;
  let maxLength = NO_LIMIT;
  let fieldLength = 4;
  let fieldOffset = 0;
  if (framing.method === 'character_delimited')
    delimiter = asciiChar('framing.character_delimited.delimiter', framing.delimiter);
  if (framing.method === 'newline_delimited' || framing.method === 'character_delimited') {
    if (framing.oversized_action === 'truncate') flags |= DecodeFlag.TRUNCATE;
  }
  if (
    framing.method === 'newline_delimited' ||
    framing.method === 'character_delimited' ||
    framing.method === 'octet_counting'
  ) {
    maxLength = framing.max_length ?? NO_LIMIT;
  }
  if (framing.method === 'length_delimited') {
    fieldLength = lengthFieldLength(framing.length_field_length);
    fieldOffset = framing.length_field_offset ?? 0;
    maxLength = framing.max_frame_length ?? DEFAULT_MAX_FRAME_LENGTH;
    if (framing.length_field_is_big_endian === false) flags |= DecodeFlag.LITTLE_ENDIAN;
  }
  if (options.frameStamps) flags |= DecodeFlag.FRAME_STAMPS;
  const stampBytes =
    options.stampBytes ??
    (options.frameStamps
      ? encodeValue(frameStampsValue(options.frameStamps))
      : options.stamp && encodeValue(options.stamp));
  const stamp = stampBytes ? blob.bytes(stampBytes) : 0;
  const message = blob.bytes(pathDescriptor(options.messageKey ?? 'message'));
  const hostname = options.hostnameKey === undefined ? 0 : blob.bytes(pathDescriptor(options.hostnameKey));
  return blob.words(
    descriptorWords(DecodeDescriptor.Size, [
      [DecodeDescriptor.Method, method],
      [DecodeDescriptor.Delimiter, delimiter],
      [DecodeDescriptor.MaxLength, maxLength],
      [DecodeDescriptor.Flags, flags],
      [DecodeDescriptor.LengthFieldLength, fieldLength],
      [DecodeDescriptor.LengthFieldOffset, fieldOffset],
      [DecodeDescriptor.Discard, options.discard ?? 0],
      [DecodeDescriptor.Decoder, codec],
      [DecodeDescriptor.Stamp, stamp],
      [DecodeDescriptor.MessagePath, message],
      [DecodeDescriptor.FirstFrame, frames[0]],
      [DecodeDescriptor.EndFrame, frames[1]],
      [DecodeDescriptor.HostnamePath, hostname],
    ]),
  );
}

/** The stamps of `FRAME_STAMPS`: each distinct one once (consecutive datagrams of a peer share theirs), and
 * each frame's index into them as u32s. */
function frameStampsValue(stamps: ReadonlyArray<Record<string, unknown>>): [object[], Uint8Array] {
  const distinct = new Map<object, number>();
  const indexes = new DataView(new ArrayBuffer(4 * stamps.length));
  stamps.forEach((stamp, i) => {
    let at = distinct.get(stamp);
    if (at === undefined) distinct.set(stamp, (at = distinct.size));
    indexes.setUint32(4 * i, at, true);
  });
  return [[...distinct.keys()], new Uint8Array(indexes.buffer)];
}

/** Encode descriptors made lately, by their options: a sink's or a chain's are the same for every batch, and
 * making one costs tens of µs while the code is cold (a pipeline makes a few hundred). */
const encodeDescriptors = new BoundedCache<string, { blob: Blob; ref: Ref }>(64);

/** The encode descriptor of `options` in a blob of its own (made once per distinct options). */
export function encodeDescriptorBlob(options: EncodeOptions, each: boolean): { blob: Blob; ref: Ref } {
  return encodeDescriptors.get(`${each ? 1 : 0}${JSON.stringify(options)}`, () => {
    const blob = new Blob();
    return { blob, ref: encodeDescriptor(blob, options, each) };
  });
}

/** The encode descriptor of docs/abi.md §9, added to `blob`. */
function encodeDescriptor(blob: Blob, options: EncodeOptions, each: boolean): Ref {
  const codec = codeOf(ENCODERS, options.codec, 'encoding codec');
  const framing = options.framing ?? { method: 'newline_delimited' };
  const method = codeOf(ENCODE_METHODS, framing.method, 'framing method');
  const timestampFormat = codeOf(TIMESTAMP_FORMATS, options.timestamp_format ?? 'rfc3339', 'timestamp_format');
  let flags = each ? EncodeFlag.EACH : 0;
  if (options.json?.pretty) flags |= EncodeFlag.PRETTY;
  let delimiter = 0x0a;
  let fieldLength = 4;
  let maxFrameLength = DEFAULT_MAX_FRAME_LENGTH;
  if (framing.method === 'character_delimited')
    delimiter = asciiChar('framing.character_delimited.delimiter', framing.delimiter);
  if (framing.method === 'length_delimited') {
    fieldLength = lengthFieldLength(framing.length_field_length);
    maxFrameLength = framing.max_frame_length ?? DEFAULT_MAX_FRAME_LENGTH;
    if (framing.length_field_is_big_endian === false) flags |= EncodeFlag.LITTLE_ENDIAN;
  }
  const csv = options.csv;
  if (options.codec === 'csv' && !csv?.fields?.length) throw new Error('the csv codec needs csv.fields');
  if (csv?.double_quote ?? true) flags |= EncodeFlag.DOUBLE_QUOTE;
  const quoteStyle = codeOf(QUOTE_STYLES, csv?.quote_style ?? 'necessary', 'csv.quote_style');
  return blob.words(
    descriptorWords(EncodeDescriptor.Size, [
      [EncodeDescriptor.Encoder, codec],
      [EncodeDescriptor.Flags, flags],
      [EncodeDescriptor.TimestampFormat, timestampFormat],
      [EncodeDescriptor.Framing, method],
      [EncodeDescriptor.Delimiter, delimiter],
      [EncodeDescriptor.LengthFieldLength, fieldLength],
      [EncodeDescriptor.MaxFrameLength, maxFrameLength],
      [EncodeDescriptor.MessagePath, blob.bytes(pathDescriptor(options.messageKey ?? 'message'))],
      [EncodeDescriptor.OnlyFields, options.only_fields ? blob.paths(options.only_fields) : 0],
      [EncodeDescriptor.ExceptFields, options.except_fields ? blob.paths(options.except_fields) : 0],
      [EncodeDescriptor.CsvFields, options.codec === 'csv' ? blob.paths(csv!.fields) : 0],
      [EncodeDescriptor.CsvDelimiter, asciiChar('csv.delimiter', csv?.delimiter ?? ',')],
      [EncodeDescriptor.CsvQuote, asciiChar('csv.quote', csv?.quote ?? '"')],
      [EncodeDescriptor.CsvEscape, asciiChar('csv.escape', csv?.escape ?? '"')],
      [EncodeDescriptor.QuoteStyle, quoteStyle],
    ]),
  );
}

// ---- the instance ---------------------------------------------------------------------------------------

interface CodecExports extends ArenaExports {
  arena_used(): number;
  decode(ptr: number, len: number, descriptor: number): number;
  decode_len(): number;
  decode_count(): number;
  decode_consumed(): number;
  decode_discard(): number;
  decode_needed(): number;
  decode_frames(): number;
  decode_errors_ptr(): number;
  decode_errors_len(): number;
  encode(ptr: number, len: number, descriptor: number): number;
  encode_len(): number;
  encode_errors_ptr(): number;
  encode_errors_len(): number;
  encode_offsets_ptr(): number;
  encode_offsets_len(): number;
  arena_set_floor(): void;
  regex_slots(program: number): number;
  regex_search(program: number, text: number, len: number, from: number, slots: number): number;
}

let compiled: WebAssembly.Module | undefined;

function codecWasm(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(readFileSync(fileURLToPath(new URL('../codec.wasm', import.meta.url))));
  return compiled;
}

/** Most bytes of regex programs an instance keeps between calls. */
const RESIDENT_PROGRAM_BYTES = 1 << 20;

/** What one decode call on a range of frames gives. */
type DecodedRange = DecodeResult & { frames: number };

/**
 * A codec module instance. A frame or an event whose decoding or encoding traps (memory past the limit, a
 * stack overflow, a bug) fails alone, as a decode or encode error: the call is run again in ranges around
 * it on a fresh instance (runtime/trap-recovery.ts), as remap instances do with events.
 */
export class CodecModule extends ArenaInstance<CodecExports> {
  private readonly timezone: string;
  /** Regex programs kept in the instance, by the program's bytes (see residentProgram). */
  private readonly residentPrograms = new Map<Uint8Array, number>();
  private residentBytes = 0;

  /**
   * `timezone`: the zone of syslog timestamps without one (the global `timezone` option). `memoryLimit`:
   * most bytes the instance's memory may hold (default `DEFAULT_MEMORY_LIMIT`).
   */
  constructor(options: { timezone?: string; memoryLimit?: number } = {}) {
    const timezone = options.timezone ?? 'UTC';
    const memoryLimit = options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
    super(startCodec(timezone, memoryLimit), memoryLimit, 'the codec module');
    this.timezone = timezone;
  }

  protected restart(): CodecExports {
    this.residentPrograms.clear();
    this.residentBytes = 0;
    return startCodec(this.timezone, this.memoryLimit);
  }

  /** Frames [start, end) of `input` decoded into an input batch, and what the framing of all of it gives. */
  private decodeRange(input: Uint8Array, options: DecodeOptions, frames: FrameRange): Attempt<DecodedRange> {
    // Outside the attempt: options it refuses are the caller's error, not a frame's.
    const blob = new Blob();
    const descriptor = decodeDescriptor(blob, options, frames);
    return this.attempt((): DecodedRange => {
      const ptr = this.copyIn(input);
      const base = this.copyBlob(blob);
      const out = this.exports.decode(ptr, input.length, base + descriptor.offset);
      const errors = this.readErrors(this.exports.decode_errors_ptr(), this.exports.decode_errors_len());
      return {
        batch: this.copyOut(out, this.exports.decode_len()),
        count: this.exports.decode_count(),
        consumed: this.exports.decode_consumed(),
        discard: this.exports.decode_discard(),
        needed: this.exports.decode_needed(),
        frames: this.exports.decode_frames(),
        errors: errors.map(({ index, message }) => ({ frame: index, message })),
      };
    });
  }

  /**
   * Splits `input` into frames without decoding any: how many (failed ones included), the bytes up to the end
   * of the last, and the framing state for what follows (`DecodeResult`'s `discard` and `needed`). Undefined
   * when not even the input fits in memory.
   */
  split(
    input: Uint8Array,
    options: DecodeOptions,
  ): Pick<DecodedRange, 'frames' | 'consumed' | 'discard' | 'needed'> | undefined {
    const framing = this.decodeRange(input, options, [0, 0]);
    if ('trap' in framing) return undefined;
    const { frames, consumed, discard, needed } = framing.value;
    return { frames, consumed, discard, needed };
  }

  /** Splits `input` into frames and decodes them into an input batch. */
  decode(input: Uint8Array, options: DecodeOptions): DecodeResult {
    const run = (frames: FrameRange) => this.decodeRange(input, options, frames);
    const whole = run(ALL_FRAMES);
    if ('value' in whole) return resultOf(whole.value);
    // Framing alone (no frame decoded) tells how many frames there are, and what was consumed.
    const framing = run([0, 0]);
    if ('trap' in framing) {
      // Not even the input fits in memory: it is dropped, as one failed frame.
      return {
        batch: joinBatch(0, 0, []),
        count: 0,
        consumed: input.length,
        discard: options.discard ?? 0,
        needed: 0,
        errors: [{ frame: 0, message: framing.trap.message }],
      };
    }
    const pieces = recoverFromTrap(whole.trap, framing.value.frames, (start, end) => run([start, end]));
    const sections: Uint8Array[] = [];
    const errors: DecodeResult['errors'] = [];
    let count = 0;
    for (const piece of pieces) {
      if ('value' in piece) {
        sections.push(recordBytes(piece.value.batch));
        count += piece.value.count;
        errors.push(...piece.value.errors);
      } else {
        errors.push({ frame: piece.failed, message: piece.message });
      }
    }
    return { ...resultOf(framing.value), batch: joinBatch(0, count, sections), count, errors };
  }

  /**
   * The leftmost-first match of a regex program (abi/regex-program.ts) at byte `from` or later of the UTF-8
   * `text`: its capture slots (byte offsets, group n at 2n and 2n + 1, -1 where a group took no part), or
   * null without a match. A search that traps (the memory limit) is the Trap.
   */
  regexSearch(program: Uint8Array, text: Uint8Array, from = 0): Attempt<Int32Array | null> {
    return this.attempt(() => {
      const prog = this.residentProgram(program);
      const input = this.copyIn(text);
      const slots = this.exports.regex_slots(prog) >>> 0;
      if (!this.exports.regex_search(prog, input, text.length, from, slots)) return null;
      return new Int32Array(this.exports.memory.buffer.slice(slots, slots + (programGroupCount(program) + 1) * 8));
    });
  }

  /**
   * The address of `program` in the instance. The first RESIDENT_PROGRAM_BYTES of programs stay there, below
   * the arena's floor (a grok pattern's program is tens of KiB, copied once instead of per event); the rest
   * are copied per call.
   */
  private residentProgram(program: Uint8Array): number {
    const resident = this.residentPrograms.get(program);
    if (resident !== undefined) return resident;
    const address = this.copyIn(program);
    if (this.residentBytes + program.length <= RESIDENT_PROGRAM_BYTES) {
      this.exports.arena_set_floor();
      this.residentPrograms.set(program, address);
      this.residentBytes += program.length;
    }
    return address;
  }

  /** Encodes the events of an input batch as framed bytes: a copy, or with `reuse` a view (see `OutputOptions`). */
  encode(batch: Uint8Array, options: EncodeOptions, { reuse = false }: OutputOptions = {}): EncodeResult {
    // Pieces encoded again after a trap overwrite each other's memory: only a whole batch's output stays a view.
    const pieces = this.runEncode(batch, options, false, (out, length, whole) =>
      reuse && whole ? this.bytes(out, length) : this.copyOut(out, length),
    );
    const bytes = pieces.flatMap((piece) => piece.bytes ?? []);
    return {
      bytes: bytes.length === 1 ? bytes[0]! : joinBytes(bytes),
      errors: pieces.flatMap((piece) => piece.errors),
    };
  }

  /** Encodes each event of an input batch as a payload of its own, unframed (events that fail are left out). */
  encodeEach(batch: Uint8Array, options: EncodeOptions): Uint8Array[] {
    return this.encodeEachIndexed(batch, options).payloads.filter((payload) => payload !== undefined);
  }

  /** Like `encodeEach`, one entry per event of the batch: undefined for an event that failed (its error is
   * among `errors`). */
  encodeEachIndexed(
    batch: Uint8Array,
    options: EncodeOptions,
  ): { payloads: Array<Uint8Array | undefined>; errors: EncodeResult['errors'] } {
    const pieces = this.runEncode(batch, options, true, (out) => {
      const view = new DataView(
        this.exports.memory.buffer,
        this.exports.encode_offsets_ptr() >>> 0,
        this.exports.encode_offsets_len() >>> 0,
      );
      // One copy of the output, each payload a view of it: a copy per event cost more than encoding it.
      const whole = this.copyOut(out, view.byteLength === 0 ? 0 : view.getUint32(view.byteLength - 4, true));
      const payloads: Uint8Array[] = [];
      for (let at = 0, start = 0; at < view.byteLength; at += 4) {
        const end = view.getUint32(at, true);
        payloads.push(whole.subarray(start, end));
        start = end;
      }
      return payloads;
    });
    // The encoder writes an offset for each event it encoded, in order, and an error for each other one.
    const encoded = pieces.flatMap((piece) => piece.bytes ?? []);
    const errors = pieces.flatMap((piece) => piece.errors);
    const failed = new Set(errors.map((error) => error.event));
    let next = 0;
    const payloads = Array.from({ length: encoded.length + failed.size }, (_, event) =>
      failed.has(event) ? undefined : encoded[next++],
    );
    return { payloads, errors };
  }

  /** Bytes allocated in the arena since the last reset (0 between calls). */
  arenaUsed(): number {
    return this.exports.arena_used();
  }

  /**
   * Encodes `batch`: one piece, or after a trap the pieces of the ranges of events run again, in order (an
   * event that trapped alone is a piece without bytes and with its error). Error indexes count events of `batch`.
   * `read` takes the output of a call (`whole`: of the call on the whole batch).
   */
  private runEncode<T>(
    batch: Uint8Array,
    options: EncodeOptions,
    each: boolean,
    read: (out: number, length: number, whole: boolean) => T,
  ): Array<{ bytes?: T; errors: EncodeResult['errors'] }> {
    const { blob, ref: descriptor } = encodeDescriptorBlob(options, each);
    const run = (events: Uint8Array) =>
      this.attempt(() => {
        const ptr = this.copyIn(events);
        const base = this.copyBlob(blob);
        const out = this.exports.encode(ptr, events.length, base + descriptor.offset);
        const errors = this.readErrors(this.exports.encode_errors_ptr(), this.exports.encode_errors_len());
        return {
          bytes: read(out, this.exports.encode_len(), events === batch),
          errors: errors.map(({ index, message }) => ({ event: index, message })),
        };
      });
    const whole = run(batch);
    if ('value' in whole) return [whole.value];
    const records = new BatchRecords(batch);
    return recoverFromTrap(whole.trap, records.count, (start, end) => run(records.slice(start, end))).map((piece) =>
      'value' in piece
        ? {
            bytes: piece.value.bytes,
            errors: piece.value.errors.map((error) => ({ ...error, event: piece.start + error.event })),
          }
        : { errors: [{ event: piece.failed, message: piece.message }] },
    );
  }
}

/** The pieces' bytes in one buffer of its own (transferable, unlike a pooled Buffer). */
function joinBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** A decode result without the frame count. */
function resultOf({ frames: _frames, ...result }: DecodedRange): DecodeResult {
  return result;
}

/** A new codec module instance, its memory limit set. */
function startCodec(timezone: string, memoryLimit: number): CodecExports {
  const ref: InstanceRef = {};
  const instance = new WebAssembly.Instance(
    codecWasm(),
    moduleImports(ref, [], { now: systemClock, timezone, log: stderrLog }),
  );
  const exports = instance.exports as unknown as CodecExports;
  ref.memory = exports.memory;
  ref.alloc = exports.alloc;
  setMemoryLimit(exports, memoryLimit);
  return exports;
}

/** The codec module of this thread that runs regex programs for JS code (grok, `RustRegex`), made at the first search. */
let regexInstance: CodecModule | undefined;

/** `CodecModule.regexSearch` on this thread's regex instance. */
export function searchRegexProgram(program: Uint8Array, text: Uint8Array, from = 0): Attempt<Int32Array | null> {
  regexInstance ??= new CodecModule();
  return regexInstance.regexSearch(program, text, from);
}

/** The programs of the `RustRegex` patterns searched on this thread. */
const vmPrograms = new WeakMap<RustRegex, Uint8Array>();

/** `RustRegex`'s engine for the patterns V8's may not run (abi/regex.ts), in use once this module is loaded. */
export const regexVm: RegexVm = {
  search(regex, text, from) {
    let program = vmPrograms.get(regex);
    if (!program) vmPrograms.set(regex, (program = regexProgram(regex.pattern)));
    const found = searchRegexProgram(program, text, from);
    return 'trap' in found ? undefined : found.value;
  },
};

useRegexVm(regexVm);
