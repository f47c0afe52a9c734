// The `encoding` and `framing` options every encoding sink shares (Vector's names and defaults), and the
// default framing Vector picks when `framing` is absent: stream sinks (console, file, socket) frame with
// newlines, message sinks (http) send a JSON codec's events as one JSON array.

import { z } from 'zod';
import { CodecModule, type EncodeFraming, type EncodeOptions } from '../../../runtime/engine.js';
import type { OutputOptions } from '../../../runtime/index.js';
import type { Logger } from '../../log.js';
import type { ComponentTelemetry } from '../../telemetry/component.js';
import type { EventBatch } from '../../topology/batch.js';
import { eventFieldPath } from './event-fields.js';

const asciiChar = z.string().refine((text) => text.length === 1 && text.charCodeAt(0) < 0x80, {
  message: 'expected one ASCII (7-bit) character',
});

const CODECS = ['json', 'text', 'logfmt', 'csv', 'raw_message', 'native_json'] as const;
type CodecName = (typeof CODECS)[number];

const TIMESTAMP_FORMATS = ['rfc3339', 'unix', 'unix_ms', 'unix_us', 'unix_ns', 'unix_float'] as const;

const csvOptions = z.strictObject({
  fields: z.array(z.string()),
  delimiter: asciiChar.default(','),
  double_quote: z.boolean().default(true),
  escape: asciiChar.default('"'),
  quote: asciiChar.default('"'),
  quote_style: z.enum(['always', 'necessary', 'never', 'non_numeric']).default('necessary'),
  capacity: z.number().int().nonnegative().default(8192),
});

/** Vector's `Transformer`: what an encoding does to an event before the codec (the whole `encoding` of the
 * sinks that choose their codec themselves). */
const transformerFields = {
  only_fields: z.array(z.string()).optional(),
  except_fields: z.array(z.string()).optional(),
  timestamp_format: z.enum(TIMESTAMP_FORMATS).optional(),
};

export const transformerSchema = z.strictObject(transformerFields).prefault({});

export const encodingSchema = z
  .strictObject({
    codec: z.enum(CODECS),
    json: z.strictObject({ pretty: z.boolean().default(false) }).optional(),
    csv: csvOptions.optional(),
    ...transformerFields,
  })
  .check((ctx) => {
    if (ctx.value.codec === 'csv' && ctx.value.csv === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['csv'],
        message: 'missing option "csv" (required when codec = "csv"), with "csv.fields"',
      });
    }
  });

export type EncodingOptions = z.infer<typeof encodingSchema>;

const FRAMING_METHODS = ['bytes', 'character_delimited', 'length_delimited', 'newline_delimited'] as const;

const lengthDelimitedOptions = z.strictObject({
  length_field_is_big_endian: z.boolean().default(true),
  length_field_length: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8)]).default(4),
  length_field_offset: z.number().int().nonnegative().default(0),
  max_frame_length: z.number().int().positive().default(8_388_608),
});

export const framingSchema = z
  .strictObject({
    method: z.enum(FRAMING_METHODS),
    character_delimited: z.strictObject({ delimiter: asciiChar }).optional(),
    length_delimited: lengthDelimitedOptions.optional(),
  })
  .check((ctx) => {
    if (ctx.value.method === 'character_delimited' && ctx.value.character_delimited === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['character_delimited'],
        message: 'missing option "character_delimited.delimiter" (required when method = "character_delimited")',
      });
    }
  });

export type FramingOptions = z.infer<typeof framingSchema>;

/** Whether a sink writes a stream of events (console, file, socket) or sends batches as messages (http):
 * it decides the framing Vector uses when the user sets none. */
export type SinkKind = 'stream' | 'message';

/** The codec module's options for the sink's `encoding` and `framing`: the framing the user configured, or
 * Vector's default for the codec and the kind of sink (a JSON codec in a message sink delimits with `,`). */
export function encodeOptions(
  encoding: EncodingOptions,
  framing: FramingOptions | undefined,
  sinkKind: SinkKind,
  messageKey: string,
): EncodeOptions {
  const { codec, json, csv, only_fields, except_fields, timestamp_format } = encoding;
  return {
    codec,
    json,
    csv,
    only_fields,
    except_fields,
    timestamp_format,
    messageKey,
    framing: encodeFraming(codec, framing, sinkKind),
  };
}

/** `options` also leaving out the event field `key` (a sink that moves the timestamp out of the event: loki,
 * splunk_hec_logs): cut by the encoder rather than out of each event's bytes. */
export function exceptField(options: EncodeOptions, key: string): EncodeOptions {
  return eventFieldPath(key) === undefined
    ? options
    : { ...options, except_fields: [...(options.except_fields ?? []), key] };
}

function encodeFraming(codec: CodecName, framing: FramingOptions | undefined, sinkKind: SinkKind): EncodeFraming {
  if (framing === undefined) {
    return codec === 'json' && sinkKind === 'message'
      ? { method: 'character_delimited', delimiter: ',' }
      : { method: 'newline_delimited' };
  }
  switch (framing.method) {
    case 'character_delimited':
      return { method: 'character_delimited', delimiter: framing.character_delimited!.delimiter };
    case 'length_delimited':
      return { method: 'length_delimited', ...framing.length_delimited };
    default:
      return { method: framing.method };
  }
}

/** A sink's encoder: the codec module with the sink's options; events that fail to encode are counted,
 * logged and left out (Vector's `encoder_failed`). */
export class SinkEncoder {
  private readonly codec = new CodecModule();

  constructor(
    readonly options: EncodeOptions,
    /** The sink's (its `ComponentEnv`'s). */
    private readonly env: { readonly telemetry: ComponentTelemetry; readonly log: Logger },
  ) {}

  /**
   * The batch's events, encoded and framed (a batch a transform already encoded for this sink as is). With
   * `reuse` the bytes may be a view of the codec module's memory, valid until the next call: for a sink that
   * is done with them before it encodes again.
   */
  encode(batch: EventBatch, options?: OutputOptions): Uint8Array {
    if (batch.encoded) return batch.bytes;
    const { bytes, errors } = this.codec.encode(batch.bytes, this.options, options);
    if (errors.length > 0) this.failed(errors.length, errors[0]!.message);
    return bytes;
  }

  /** One unframed payload per event, undefined for one that could not be encoded (counted and logged). */
  encodeEach(batch: EventBatch): Array<Uint8Array | undefined> {
    const { payloads, errors } = this.codec.encodeEachIndexed(batch.bytes, this.options);
    if (errors.length > 0) this.failed(errors.length, errors[0]!.message);
    return payloads;
  }

  /** Counts and logs events left out because they could not be encoded (here or by a transform for us). */
  failed(count: number, message: string): void {
    encoderFailed(this.env, count, message);
  }
}

/** A batch's encoded events as one payload, as Vector's batching sinks write it (`encode_input`): the last
 * event without its newline or character delimiter, and a JSON codec's comma-delimited events as a JSON array. */
export function batchPayload(encoded: Uint8Array, options: EncodeOptions): Uint8Array {
  const { framing, codec } = options;
  const delimited = framing?.method === 'newline_delimited' || framing?.method === 'character_delimited';
  const events = delimited ? encoded.subarray(0, Math.max(0, encoded.length - 1)) : encoded;
  const jsonArray =
    framing?.method === 'character_delimited' &&
    framing.delimiter === ',' &&
    (codec === 'json' || codec === 'native_json');
  return jsonArray ? Buffer.concat([Buffer.from('['), events, Buffer.from(']')]) : events;
}

/** Counts and logs events a sink's encoder left out (Vector's `encoder_failed`). */
export function encoderFailed(
  env: { readonly telemetry: ComponentTelemetry; readonly log: Logger },
  count: number,
  message: string,
): void {
  env.telemetry.error('encoder_failed', 'sending', count);
  env.telemetry.discarded(count, false);
  env.log.error(`Failed serializing frame: ${message}`, {
    error_type: 'encoder_failed',
    stage: 'sending',
    count,
    internal_log_rate_key: 'encoder_failed',
  });
}
