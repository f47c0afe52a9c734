// The codec module's descriptors (docs/abi.md §9): what runtime/codec-module.ts writes and
// stdlib-as/codec/{frames,decode,encode}.ts read. Shared by tsc and asc (see values.ts).

/** Sources' framing methods. */
export const enum DecodeMethod {
  Bytes = 0,
  NewlineDelimited = 1,
  CharacterDelimited = 2,
  LengthDelimited = 3,
  OctetCounting = 4,
}

/** Sources' decoders. */
export const enum Decoder {
  Bytes = 0,
  Json = 1,
  Syslog = 2,
  NativeJson = 3,
}

/** Decode descriptor flags. */
export const enum DecodeFlag {
  /** The input is the end of the stream: its last, undelimited bytes are a frame too. */
  EOF = 1,
  /** An oversized delimited frame is cut to the maximum length instead of dropped. */
  TRUNCATE = 2,
  /** The length field is little-endian. */
  LITTLE_ENDIAN = 4,
  /** Invalid UTF-8 is an error instead of U+FFFD (the codecs' `lossy: false`). */
  STRICT_UTF8 = 8,
  /** Vector's log namespace: the decoded payload is the event, whatever its type, and the stamp is the
   * metadata of every log event (as it is, not merged into the event). */
  VECTOR_NAMESPACE = 16,
  /** With VECTOR_NAMESPACE, syslog (the syslog source's decoder): the message is the event, the other parsed
   * fields go to the metadata's `syslog` object (structured data elements under its `structured_data`). */
  SYSLOG_METADATA = 32,
  /** Stamp is an encoded `[stamps, indexes]`: the distinct stamps, and as bytes each frame's index into them
   * (u32, little-endian), in the input's order (messages with stamps of their own, decoded in one call). */
  FRAME_STAMPS = 64,
}

/** Byte offsets of the decode descriptor's u32 words. */
export const enum DecodeDescriptor {
  Method = 0,
  Delimiter = 4,
  /** 0xffffffff: no limit. */
  MaxLength = 8,
  Flags = 12,
  LengthFieldLength = 16,
  LengthFieldOffset = 20,
  /** The framing state the previous call of the stream left. */
  Discard = 24,
  Decoder = 28,
  /** Address of an encoded object of fields every log event gets where it lacks them (with VECTOR_NAMESPACE:
   * every log event's metadata), or 0. */
  Stamp = 32,
  /** Address of the path descriptor of the message key. */
  MessagePath = 36,
  /** Frames [FirstFrame, EndFrame) are decoded; the others are only split off. */
  FirstFrame = 40,
  EndFrame = 44,
  /** Syslog: address of the path descriptor the parsed `hostname` is also set at (the syslog source's host
   * key, as Vector's source does), or 0. */
  HostnamePath = 48,
  Size = 52,
}

/** Sinks' encoders. */
export const enum Encoder {
  Json = 0,
  Text = 1,
  Logfmt = 2,
  Csv = 3,
  RawMessage = 4,
  NativeJson = 5,
}

/** Sinks' framing methods. */
export const enum EncodeMethod {
  Bytes = 0,
  NewlineDelimited = 1,
  CharacterDelimited = 2,
  LengthDelimited = 3,
}

/** Sinks' `timestamp_format`. */
export const enum EncodeTimestamp {
  Rfc3339 = 0,
  Unix = 1,
  UnixMs = 2,
  UnixUs = 3,
  UnixNs = 4,
  UnixFloat = 5,
}

/** The csv encoder's `quote_style`. */
export const enum CsvQuoteStyle {
  Necessary = 0,
  Always = 1,
  Never = 2,
  NonNumeric = 3,
}

/** Encode descriptor flags. */
export const enum EncodeFlag {
  PRETTY = 1,
  DOUBLE_QUOTE = 2,
  /** One payload per event, unframed; their end offsets go to the offsets buffer. */
  EACH = 4,
  LITTLE_ENDIAN = 8,
}

/** Byte offsets of the encode descriptor's u32 words; the path lists are u32 count, then path descriptor addresses. */
export const enum EncodeDescriptor {
  Encoder = 0,
  Flags = 4,
  TimestampFormat = 8,
  Framing = 12,
  Delimiter = 16,
  LengthFieldLength = 20,
  MaxFrameLength = 24,
  /** Address of the path descriptor of the message key. */
  MessagePath = 28,
  /** Addresses of path lists, or 0. */
  OnlyFields = 32,
  ExceptFields = 36,
  CsvFields = 40,
  CsvDelimiter = 44,
  CsvQuote = 48,
  CsvEscape = 52,
  QuoteStyle = 56,
  Size = 60,
}

/** No maximum frame length. */
export const NO_LIMIT = 0xffffffff;
