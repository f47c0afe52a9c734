// Sinks' encoders (Vector's serializers and encoding transforms): events of an input batch (docs/abi.md §2)
// → framed bytes. Codecs json, text, logfmt, csv, raw_message, native_json; transforms only_fields,
// except_fields and timestamp_format on logs and traces; framings bytes, newline, character, length.

import { EventKind } from '../../abi/wire/batch';
import {
  CsvQuoteStyle,
  EncodeDescriptor,
  EncodeFlag,
  Encoder,
  EncodeMethod,
  EncodeTimestamp,
} from '../../abi/wire/codec-descriptors';
import {
  Value,
  Tag,
  alloc,
  tagOf,
  newObject,
  newInt,
  newFloat,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectSetValueAt,
  objectFind,
  arrayLen,
  arrayGet,
  arrayItems,
  intOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  setRunning,
} from '../value';
import {
  Buffer,
  bufferNew,
  bufferReserve,
  bufferByte,
  bufferBytes,
  bufferAscii,
  bufferData,
  bufferLength,
  bufferTruncate,
} from '../buffer';
import { decodeValue, decodeCursor } from './binary';
import { writeJson, writePretty, writeIndent, writeJsonString } from './json';
import { parseFloatBytes, numberParsed } from './number';
import { writeRfc3339, fitsI64Nanos, NANOS_PER_SECOND } from './time';
import { writeLossy } from './utf8';
import { writeText, writeKeyValue, EQUALS, SPACE } from './key-value';
import { path_get, path_set, path_remove, path_exists } from '../path';
import { mayDescend, takeDepthExceeded, TOO_DEEP } from '../depth';
import { writeDebugQuoted, equalsAscii } from '../text';

let codec: Encoder = Encoder.Json;
let flags: u32 = 0;
let timestampFormat: EncodeTimestamp = EncodeTimestamp.Rfc3339;
let framing: EncodeMethod = EncodeMethod.NewlineDelimited;
let delimiter: u8 = 0x0a;
let lengthFieldLength: u32 = 4;
let maxFrameLength: u32 = 0;
let messagePath: usize = 0;
let onlyFields: usize = 0;
let exceptFields: usize = 0;
let csvFields: usize = 0;
let csvDelimiter: u8 = 0x2c;
let csvQuote: u8 = 0x22;
let csvEscape: u8 = 0x22;
let quoteStyle: CsvQuoteStyle = CsvQuoteStyle.Necessary;

let out: Buffer = 0;
let errors: Buffer = 0;
let offsets: Buffer = 0;
let outputLength: usize = 0;

export function encodedLength(): usize {
  return outputLength;
}
export function encodeErrors(): Buffer {
  return errors;
}
export function encodeOffsets(): Buffer {
  return offsets;
}

/**
 * Encodes every event of the input batch [ptr, ptr + len) with the descriptor at `descriptor` (docs/abi.md
 * §9); returns the address of the bytes.
 */
export function encodeBatch(ptr: usize, len: usize, descriptor: usize): usize {
  encodeStart(descriptor, len + (len >> 1));
  const count = load<u32>(ptr, 8);
  let record = ptr + 12;
  for (let i: u32 = 0; i < count; i++) {
    const next = record + 4 + <usize>load<u32>(record);
    const kind = <EventKind>load<u8>(record, 4);
    decodeValue(record + 8); // metadata: sinks do not encode it
    setRunning(i);
    encodeEvent(i, kind, decodeValue(decodeCursor()));
    record = next;
  }
  return encodeFinish();
}

/** Reads the descriptor (docs/abi.md §9) and starts an output of about `sizeHint` bytes; then `encodeEvent`
 * per event and `encodeFinish`. */
export function encodeStart(descriptor: usize, sizeHint: usize): void {
  codec = <Encoder>load<u32>(descriptor, EncodeDescriptor.Encoder);
  flags = load<u32>(descriptor, EncodeDescriptor.Flags);
  timestampFormat = <EncodeTimestamp>load<u32>(descriptor, EncodeDescriptor.TimestampFormat);
  framing = <EncodeMethod>load<u32>(descriptor, EncodeDescriptor.Framing);
  delimiter = <u8>load<u32>(descriptor, EncodeDescriptor.Delimiter);
  lengthFieldLength = load<u32>(descriptor, EncodeDescriptor.LengthFieldLength);
  maxFrameLength = load<u32>(descriptor, EncodeDescriptor.MaxFrameLength);
  messagePath = <usize>load<u32>(descriptor, EncodeDescriptor.MessagePath);
  onlyFields = <usize>load<u32>(descriptor, EncodeDescriptor.OnlyFields);
  exceptFields = <usize>load<u32>(descriptor, EncodeDescriptor.ExceptFields);
  csvFields = <usize>load<u32>(descriptor, EncodeDescriptor.CsvFields);
  csvDelimiter = <u8>load<u32>(descriptor, EncodeDescriptor.CsvDelimiter);
  csvQuote = <u8>load<u32>(descriptor, EncodeDescriptor.CsvQuote);
  csvEscape = <u8>load<u32>(descriptor, EncodeDescriptor.CsvEscape);
  quoteStyle = <CsvQuoteStyle>load<u32>(descriptor, EncodeDescriptor.QuoteStyle);
  out = bufferNew(sizeHint);
  errors = bufferNew(16);
  offsets = bufferNew(16);
}

/** Ends the output started by `encodeStart`; returns its address (`encodedLength` bytes). */
export function encodeFinish(): usize {
  outputLength = bufferLength(out);
  return bufferData(out);
}

/** Encodes event `index` of the output into it; an event that cannot be encoded goes to the errors. */
export function encodeEvent(index: u32, kind: EventKind, event: Value): void {
  if (kind != EventKind.Metric) event = transform(event);
  const start = bufferLength(out);
  const prefix = framing == EncodeMethod.LengthDelimited && !(flags & EncodeFlag.EACH) ? lengthFieldLength : 0;
  bufferReserve(out, prefix);
  const failure = takeDepthExceeded() ? TOO_DEEP : writePayload(kind, event);
  if (failure != null || takeDepthExceeded()) {
    bufferTruncate(out, start);
    return writeError(index, failure != null ? failure : TOO_DEEP);
  }
  const size = bufferLength(out) - start - prefix;
  if (flags & EncodeFlag.EACH) {
    store<u32>(bufferReserve(offsets, 4), <u32>bufferLength(out));
    return;
  }
  switch (framing) {
    case EncodeMethod.NewlineDelimited:
      return bufferByte(out, 0x0a);
    case EncodeMethod.CharacterDelimited:
      return bufferByte(out, delimiter);
    case EncodeMethod.LengthDelimited: {
      if (<u64>size > <u64>maxFrameLength) {
        bufferTruncate(out, start);
        return writeError(index, 'frame size too big');
      }
      writeLength(bufferData(out) + start, <u64>size);
    }
  }
}

/** The frame length in `lengthFieldLength` bytes at `at`, big-endian unless LITTLE_ENDIAN. */
function writeLength(at: usize, size: u64): void {
  const n = <usize>lengthFieldLength;
  for (let i: usize = 0; i < n; i++) {
    const byte = <u8>(size >> ((<u64>i) << 3));
    store<u8>(at + (flags & EncodeFlag.LITTLE_ENDIAN ? i : n - 1 - i), byte);
  }
}

function writeError(index: u32, text: string): void {
  store<u32>(bufferReserve(errors, 4), index);
  const lengthAt = bufferLength(errors);
  bufferReserve(errors, 4);
  bufferAscii(errors, text);
  store<u32>(bufferData(errors) + lengthAt, <u32>(bufferLength(errors) - lengthAt - 4));
}

/** Writes the event as the codec says; returns null, or why the event cannot be encoded. */
function writePayload(kind: EventKind, event: Value): string | null {
  switch (codec) {
    case Encoder.Json: {
      if (kind == EventKind.Metric) writeMetricJson(event, 0);
      else if (flags & EncodeFlag.PRETTY) writePretty(out, event, 0);
      else writeJson(out, event);
      return null;
    }
    case Encoder.NativeJson: {
      bufferAscii(out, kind == EventKind.Log ? '{"log":' : kind == EventKind.Metric ? '{"metric":' : '{"trace":');
      if (kind == EventKind.Metric) writeMetricJson(event, 0);
      else writeJson(out, event);
      bufferByte(out, 0x7d);
      return null;
    }
    case Encoder.Text: {
      if (kind == EventKind.Metric) return writeMetricText(event);
      if (kind == EventKind.Log) writeMessage(false, event);
      return null;
    }
    case Encoder.RawMessage: {
      if (kind != EventKind.Log) return 'the raw_message codec encodes only log events';
      writeMessage(true, event);
      return null;
    }
    case Encoder.Logfmt: {
      if (kind != EventKind.Log) return 'the logfmt codec encodes only log events';
      writeLogfmt(event);
      return null;
    }
    case Encoder.Csv: {
      if (kind != EventKind.Log) return 'the csv codec encodes only log events';
      writeCsv(event);
      return null;
    }
  }
  return null;
}

// ---- encoding transforms ----------------------------------------------------------------------------------

/** `only_fields`, then `except_fields`, then `timestamp_format` (Vector's Transformer order). */
function transform(event: Value): Value {
  const cell = alloc(4);
  if (onlyFields != 0) {
    store<u32>(cell, <u32>newObject(8));
    forEachPath(
      onlyFields,
      (path: usize, cell: usize, source: Value): void => {
        if (path_exists(source, path)) path_set(cell, path, path_get(source, path));
      },
      cell,
      event,
    );
  } else {
    store<u32>(cell, <u32>event);
  }
  if (exceptFields != 0) {
    forEachPath(
      exceptFields,
      (path: usize, cell: usize, _source: Value): void => {
        path_remove(cell, path, 0);
      },
      cell,
      0,
    );
  }
  const result: Value = load<u32>(cell);
  return timestampFormat == EncodeTimestamp.Rfc3339 ? result : formatTimestamps(result);
}

/** A path list: u32 count, then a u32 address of a path descriptor (stdlib-as/path.ts) per path. */
function forEachPath(
  list: usize,
  each: (path: usize, cell: usize, source: Value) => void,
  cell: usize,
  source: Value,
): void {
  for (let i: usize = 0, n = <usize>load<u32>(list); i < n; i++)
    each(<usize>load<u32>(list + 4 + (i << 2)), cell, source);
}

/**
 * Timestamps anywhere in `v` (nested `depth` levels deep) in the configured unix form (containers updated in
 * place: the encoder owns them).
 */
function formatTimestamps(v: Value, depth: i32 = 0): Value {
  if (tagOf(v) >= Tag.Array && !mayDescend(depth)) return v;
  switch (tagOf(v)) {
    case Tag.Timestamp:
      return unixTimestamp(v);
    case Tag.Object: {
      for (let i: usize = 0, n = objectLen(v); i < n; i++)
        objectSetValueAt(v, i, formatTimestamps(objectValue(v, i), depth + 1));
      return v;
    }
    case Tag.Array: {
      for (let i: usize = 0, n = arrayLen(v); i < n; i++)
        store<u32>(arrayItems(v) + (i << 2), <u32>formatTimestamps(arrayGet(v, i), depth + 1));
      return v;
    }
  }
  return v;
}

/** A timestamp in the configured unix form; `unix_ns` beyond i64 nanoseconds (where Vector panics) keeps it. */
function unixTimestamp(v: Value): Value {
  const seconds = timestampSeconds(v);
  const nanos = timestampNanos(v);
  switch (timestampFormat) {
    case EncodeTimestamp.Unix:
      return newInt(seconds);
    case EncodeTimestamp.UnixMs:
      return newInt(seconds * 1_000 + <i64>(nanos / 1_000_000));
    case EncodeTimestamp.UnixUs:
      return newInt(seconds * 1_000_000 + <i64>(nanos / 1_000));
    case EncodeTimestamp.UnixNs:
      return fitsI64Nanos(seconds, nanos) ? newInt(seconds * NANOS_PER_SECOND + <i64>nanos) : v;
  }
  // chrono's timestamp_micros() as f64 / 1e6.
  return newFloat(<f64>(seconds * 1_000_000 + <i64>(nanos / 1_000)) / 1e6);
}

// ---- text forms of values ---------------------------------------------------------------------------------

/** The message field as text (nothing when the event has none). A non-object event (Vector's log namespace:
 * a source's payload at the root, which Vector's schema gives the `message` meaning) is the message. */
function writeMessage(raw: bool, event: Value): void {
  if (tagOf(event) != Tag.Object) writeText(out, event, raw);
  else if (path_exists(event, messagePath)) writeText(out, path_get(event, messagePath), raw);
}

// ---- metrics ------------------------------------------------------------------------------------------------

/** Vector's Metric field order in JSON; the value type (`counter`, `gauge`, …) and anything else follow. */
const METRIC_FIELDS: StaticArray<string> = ['name', 'namespace', 'tags', 'timestamp', 'interval_ms', 'kind'];

function metricFieldRank(o: Value, i: usize): i32 {
  for (let r = 0; r < METRIC_FIELDS.length; r++) {
    if (equalsAscii(objectKeyPtr(o, i), objectKeyLen(o, i), METRIC_FIELDS[r])) return r;
  }
  return METRIC_FIELDS.length;
}

/** A metric object as JSON with Vector's field order (pretty with the PRETTY flag, at `indent`). */
function writeMetricJson(metric: Value, indent: usize): void {
  const pretty = (flags & EncodeFlag.PRETTY) != 0 && codec == Encoder.Json;
  const n = objectLen(metric);
  bufferByte(out, 0x7b);
  let first = true;
  for (let rank = 0; rank <= METRIC_FIELDS.length; rank++) {
    for (let i: usize = 0; i < n; i++) {
      if (metricFieldRank(metric, i) != rank) continue;
      if (pretty) {
        bufferAscii(out, first ? '\n' : ',\n');
        writeIndent(out, indent + 1);
      } else if (!first) {
        bufferByte(out, 0x2c);
      }
      first = false;
      writeJsonString(out, objectKeyPtr(metric, i), objectKeyLen(metric, i));
      if (pretty) {
        bufferAscii(out, ': ');
        writePretty(out, objectValue(metric, i), indent + 1);
      } else {
        bufferByte(out, 0x3a);
        writeJson(out, objectValue(metric, i));
      }
    }
  }
  if (pretty && n > 0) {
    bufferByte(out, 0x0a);
    writeIndent(out, indent);
  }
  bufferByte(out, 0x7d);
}

/**
 * Vector's `Display` of a metric: `[timestamp ]namespace_name{tag="value",…} = 1.5` (`+` for incremental),
 * for counters, gauges and sets.
 */
function writeMetricText(metric: Value): string | null {
  const counter = metricField(metric, 'counter');
  const value = counter != 0 ? counter : metricField(metric, 'gauge');
  const set = metricField(metric, 'set');
  if (value == 0 && set == 0) return 'the text codec writes only counter, gauge and set metrics';
  const timestamp = metricField(metric, 'timestamp');
  if (timestamp != 0 && tagOf(timestamp) == Tag.Timestamp) {
    writeRfc3339(out, timestampSeconds(timestamp), timestampNanos(timestamp));
    bufferByte(out, 0x20);
  }
  const namespace = metricField(metric, 'namespace');
  if (namespace != 0 && tagOf(namespace) == Tag.Bytes) {
    writeLossy(out, bytesPtr(namespace), bytesLen(namespace));
    bufferByte(out, 0x5f);
  }
  const name = metricField(metric, 'name');
  writeLossy(out, bytesPtr(name), bytesLen(name));
  const tags = metricField(metric, 'tags');
  if (tags != 0 && tagOf(tags) == Tag.Object && objectLen(tags) > 0) {
    for (let i: usize = 0, n = objectLen(tags); i < n; i++) {
      bufferByte(out, i == 0 ? 0x7b : 0x2c);
      writeWord(objectKeyPtr(tags, i), objectKeyLen(tags, i));
      const tag = objectValue(tags, i);
      if (tagOf(tag) == Tag.Null) continue;
      bufferByte(out, 0x3d);
      const text = bufferNew(16);
      writeText(text, tag, false);
      writeDebugQuoted(out, bufferData(text), bufferLength(text));
    }
    bufferByte(out, 0x7d);
  }
  const kind = metricField(metric, 'kind');
  const absolute = kind != 0 && tagOf(kind) == Tag.Bytes && equalsAscii(bytesPtr(kind), bytesLen(kind), 'absolute');
  bufferAscii(out, absolute ? ' = ' : ' + ');
  if (value != 0) {
    const number = tagOf(value) == Tag.Object ? metricField(value, 'value') : 0;
    if (number == 0) return 'a counter or gauge metric needs a numeric "value"';
    writeText(out, tagOf(number) == Tag.Int ? newFloat(<f64>intOf(number)) : number, false);
    return null;
  }
  // A set: its values as words in brackets.
  const values = tagOf(set) == Tag.Object ? metricField(set, 'values') : 0;
  bufferByte(out, 0x5b);
  if (values != 0 && tagOf(values) == Tag.Array) {
    for (let i: usize = 0, n = arrayLen(values); i < n; i++) {
      if (i > 0) bufferByte(out, 0x2c);
      const text = bufferNew(16);
      writeText(text, arrayGet(values, i), false);
      writeWord(bufferData(text), bufferLength(text));
    }
  }
  bufferByte(out, 0x5d);
  return null;
}

/** Vector's `write_word`: as it is when only ASCII letters, digits and `_`, else Debug-quoted. */
function writeWord(ptr: usize, len: usize): void {
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(ptr + i);
    const word = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c == 0x5f;
    if (!word) return writeDebugQuoted(out, ptr, len);
  }
  bufferBytes(out, ptr, len);
}

function metricField(o: Value, key: string): Value {
  const n = <usize>key.length;
  const bytes = alloc(n);
  for (let i: usize = 0; i < n; i++) store<u8>(bytes + i, <u8>key.charCodeAt(<i32>i));
  const at = objectFind(o, bytes, n);
  return at >= 0 ? objectValue(o, <usize>at) : 0;
}

// ---- logfmt -------------------------------------------------------------------------------------------------

/** VRL's `encode_logfmt` of the event (`true` as the bare key, `false` left out). */
/** The event's fields as logfmt; a non-object event (Vector's log namespace) has none: an empty line, as Vector. */
function writeLogfmt(event: Value): void {
  if (tagOf(event) == Tag.Object) writeKeyValue(out, event, 0, EQUALS, 1, SPACE, 1, true);
}

// ---- csv ----------------------------------------------------------------------------------------------------

/** The `csv.fields` of the event, in order, as one CSV record without a terminator (the framing ends it). */
function writeCsv(event: Value): void {
  const n = <usize>load<u32>(csvFields);
  const text = bufferNew(64);
  for (let i: usize = 0; i < n; i++) {
    if (i > 0) bufferByte(out, csvDelimiter);
    const path = <usize>load<u32>(csvFields + 4 + (i << 2));
    bufferTruncate(text, 0);
    const v = path_exists(event, path) ? path_get(event, path) : 0;
    if (v != 0) writeCsvText(text, v);
    writeCsvField(bufferData(text), bufferLength(text), n == 1);
  }
}

/** Scalars as text; null, arrays, objects and regexes as nothing (Vector's CSV serializer). */
function writeCsvText(b: Buffer, v: Value): void {
  const tag = tagOf(v);
  if (tag == Tag.Null || tag == Tag.Array || tag == Tag.Object || tag == Tag.Regex) return;
  writeText(b, v, true);
}

/** One field with the csv crate's quoting; `only` when it is the record's only field. */
function writeCsvField(ptr: usize, len: usize, only: bool): void {
  if (!needsQuotes(ptr, len, only)) return bufferBytes(out, ptr, len);
  bufferByte(out, csvQuote);
  for (let at = ptr, end = ptr + len; at < end; at++) {
    const c = load<u8>(at);
    if (c == csvQuote) bufferByte(out, flags & EncodeFlag.DOUBLE_QUOTE ? csvQuote : csvEscape);
    bufferByte(out, c);
  }
  bufferByte(out, csvQuote);
}

function needsQuotes(ptr: usize, len: usize, only: bool): bool {
  switch (quoteStyle) {
    case CsvQuoteStyle.Always:
      return true;
    case CsvQuoteStyle.Never:
      return false;
    case CsvQuoteStyle.NonNumeric: {
      parseFloatBytes(ptr, len);
      if (len == 0 || !numberParsed()) return true;
    }
  }
  // An empty record would read as no record at all.
  if (len == 0) return only;
  for (let at = ptr, end = ptr + len; at < end; at++) {
    const c = load<u8>(at);
    if (c == csvDelimiter || c == csvQuote || c == 0x0a || c == 0x0d) return true;
    if (!(flags & EncodeFlag.DOUBLE_QUOTE) && c == csvEscape) return true;
  }
  return false;
}
