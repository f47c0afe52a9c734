// The `opentelemetry` sink, as Vector 0.54's: the http sink (sinks/http.ts) under `protocol` with
// `type: http`, whose `encoding.codec` may also be `otlp`: each event is encoded as an OTLP export request
// (support/otlp.ts: a metric as a metrics request of its own, a log or trace event holding a request as the
// `opentelemetry` source's `use_otlp_decoding` gives it as that request), and a batch's encodings,
// concatenated, are one protobuf request (repeated fields of concatenated messages add up), sent as
// `application/x-protobuf`. Events OTLP cannot carry are counted (`encoder_failed`) and left out. `uri`
// names the endpoint of the signal (`…/v1/logs`, `…/v1/metrics`, `…/v1/traces`).

import { z } from 'zod';
import { decode } from '../../../abi/codec.js';
import { BatchReader } from '../../../runtime/engine.js';
import type { EventBatch } from '../../topology/batch.js';
import type { ComponentEnv, SinkDefinition } from '../component.js';
import { encoderFailed, encodingSchema, type EncodingOptions } from '../support/encoding.js';
import { readMetric } from '../support/metric.js';
import { encodeOtlpEvent } from '../support/otlp.js';
import { tlsFiles } from '../support/tls.js';
import { buildHttpSink, checkPayloadWrapper, httpSinkFields } from './http.js';

const otlpCodec = z.strictObject({ codec: z.literal('otlp') });

const options = z.strictObject({
  protocol: z.discriminatedUnion('type', [
    z
      .strictObject({
        ...httpSinkFields,
        type: z.literal('http'),
        encoding: z.discriminatedUnion('codec', [otlpCodec, encodingSchema]),
      })
      .check(checkPayloadWrapper),
  ]),
});
type OpentelemetryOptions = z.infer<typeof options>;

/** The `otlp` codec over a batch: each event's export request, concatenated. */
class OtlpEncoder {
  readonly contentType = 'application/x-protobuf';

  constructor(private readonly env: ComponentEnv) {}

  encode(batch: EventBatch): Uint8Array {
    const encoded: Uint8Array[] = [];
    let failed = 0;
    let reason = '';
    for (const { kind, event } of new BatchReader(batch.bytes)) {
      try {
        const value = decode(event);
        encoded.push(encodeOtlpEvent(kind, value, kind === 'metric' ? readMetric(value) : undefined));
      } catch (error) {
        failed++;
        reason = (error as Error).message;
      }
    }
    if (failed > 0) encoderFailed(this.env, failed, reason);
    return Buffer.concat(encoded);
  }
}

const definition: SinkDefinition<OpentelemetryOptions> = {
  kind: 'sink',
  type: 'opentelemetry',
  description: 'Deliver OTLP data over HTTP.',
  options,
  files: (options) => tlsFiles(options.protocol.tls),
  inputs: () => ['log', 'metric', 'trace'],
  build(parsed, env) {
    const { type: _, encoding, ...http } = parsed.protocol;
    if (encoding.codec === 'otlp')
      return buildHttpSink({ ...http, encoding: { codec: 'json' } }, env, undefined, new OtlpEncoder(env));
    if (encoding.codec === 'json' && http.batch.max_events !== 1) {
      env.log.warn(
        '`opentelemetry` sink is configured with `encoding.codec = json` and `batch.max_events` greater than 1. ' +
          'This produces invalid OTLP request bodies that receivers reject with HTTP 400. Use ' +
          '`encoding.codec = otlp` (recommended) or set `batch.max_events = 1`.',
      );
    }
    return buildHttpSink({ ...http, encoding: encoding as EncodingOptions }, env);
  },
};

export default definition;
