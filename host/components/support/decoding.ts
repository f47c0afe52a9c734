// The `decoding` and `framing` options of sources that read byte streams (Vector's names and defaults), and
// what they become for the codec module. Only the codecs and framings the codec module implements.

import { z } from 'zod';
import type { DecodeFraming, DecodeOptions } from '../../../runtime/codec-module.js';

const uint = () => z.number().int().nonnegative();
const oversizedAction = z.enum(['drop', 'truncate']).default('drop');
const lossy = z.strictObject({ lossy: z.boolean().default(true) }).optional();

export const decodingOptions = z
  .strictObject({
    codec: z.enum(['bytes', 'json', 'syslog', 'native_json']).default('bytes'),
    json: lossy,
    syslog: lossy,
    native_json: lossy,
  })
  .default({ codec: 'bytes' });

export const framingOptions = z
  .strictObject({
    method: z.enum(['bytes', 'newline_delimited', 'character_delimited', 'length_delimited', 'octet_counting']),
    newline_delimited: z.strictObject({ max_length: uint().optional(), oversized_action: oversizedAction }).optional(),
    character_delimited: z
      .strictObject({
        delimiter: z.string().refine((text) => text.length === 1 && text.charCodeAt(0) < 0x80, 'must be one ASCII character'),
        max_length: uint().optional(),
        oversized_action: oversizedAction,
      })
      .optional(),
    length_delimited: z
      .strictObject({
        length_field_is_big_endian: z.boolean().default(true),
        length_field_length: z.number().int().min(1).max(8).default(4),
        length_field_offset: uint().default(0),
        max_frame_length: uint().default(8388608),
      })
      .optional(),
    octet_counting: z.strictObject({ max_length: uint().optional() }).optional(),
  })
  .refine((framing) => framing.method !== 'character_delimited' || framing.character_delimited !== undefined, {
    message: 'framing.character_delimited is required when method is "character_delimited"',
    path: ['character_delimited'],
  })
  .default({ method: 'newline_delimited' });

export type DecodingOptions = z.infer<typeof decodingOptions>;
export type FramingOptions = z.infer<typeof framingOptions>;

/** The codec module's options for a source's `decoding` and `framing`. */
export function codecDecodeOptions(decoding: DecodingOptions, framing: FramingOptions): Pick<DecodeOptions, 'codec' | 'framing' | 'lossy'> {
  const method = framing.method;
  const framingByMethod: Record<FramingOptions['method'], () => DecodeFraming> = {
    bytes: () => ({ method: 'bytes' }),
    newline_delimited: () => ({ method, ...framing.newline_delimited }) as DecodeFraming,
    character_delimited: () => ({ method, ...framing.character_delimited! }) as DecodeFraming,
    length_delimited: () => ({ method, ...framing.length_delimited }) as DecodeFraming,
    octet_counting: () => ({ method, ...framing.octet_counting }) as DecodeFraming,
  };
  const codec = decoding.codec;
  const lossyOption = codec === 'bytes' ? undefined : decoding[codec]?.lossy;
  return { codec, framing: framingByMethod[method](), ...(lossyOption === undefined ? {} : { lossy: lossyOption }) };
}
