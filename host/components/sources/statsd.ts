// `statsd`: StatsD metrics over UDP (each datagram), TCP or a Unix stream socket (each connection), one
// metric per line, parsed as Vector parses them (statsd/parser.ts). A line that does not parse is counted as
// a `parser_failed` error and logged; the other lines of its datagram or connection go on. The listening
// (binding, TLS, connection limits, shutdown) is the socket source's (support/listeners.ts).

import { z } from 'zod';
import { encodeBatch } from '../../../abi/batch.js';
import { splitBatch, type EventBatch } from '../../topology/batch.js';
import type { ComponentEnv, SourceDefinition } from '../component.js';
import {
  reportDecodeErrors,
  type ChunkStream,
  type MessageDecoder,
  type Stamp,
  type StampOrigin,
} from '../support/decoding.js';
import { datagramListener, permitOriginSchema, streamListener, tcpListen } from '../support/listeners.js';
import { metricEvent, type Metric } from '../support/metric.js';
import { tlsFiles, tlsSourceSchema } from '../support/tls.js';
import { parseStatsdLine, type ConversionUnit } from './statsd/parser.js';

const parsing = {
  sanitize: z.boolean().default(true),
  convert_to: z.enum(['seconds', 'milliseconds']).default('seconds'),
};

const options = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('udp'),
    address: z.string(),
    receive_buffer_bytes: z.number().int().positive().optional(),
    ...parsing,
  }),
  z.strictObject({
    mode: z.literal('tcp'),
    address: z.string(),
    keepalive: z.strictObject({ time_secs: z.number().int().positive().optional() }).optional(),
    permit_origin: permitOriginSchema,
    tls: tlsSourceSchema.optional(),
    shutdown_timeout_secs: z.number().nonnegative().default(30),
    receive_buffer_bytes: z.number().int().positive().optional(),
    connection_limit: z.number().int().positive().optional(),
    ...parsing,
  }),
  z.strictObject({ mode: z.literal('unix'), path: z.string().min(1), ...parsing }),
]);
type StatsdOptions = z.infer<typeof options>;

const NEWLINE = 0x0a;
/** Metrics carry nothing of their peer. */
const NO_STAMP: Stamp = {};

/** Lines to metric batches; each failing line counted and logged. */
class StatsdDecoder implements MessageDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly env: ComponentEnv,
    private readonly sanitize: boolean,
    private readonly convertTo: ConversionUnit,
  ) {}

  /** The metrics of whole lines (each without its newline). */
  lines(lines: readonly Uint8Array[]): EventBatch[] {
    const metrics: Metric[] = [];
    const errors: string[] = [];
    for (const line of lines) {
      try {
        metrics.push(parseStatsdLine(this.utf8.decode(line), this.sanitize, this.convertTo));
      } catch (error) {
        errors.push(`Statsd parse error: ${(error as Error).message}`);
      }
    }
    reportDecodeErrors(this.env.telemetry, this.env.log, errors);
    if (metrics.length === 0) return [];
    const bytes = encodeBatch(
      metrics.map((metric) => metricEvent(metric)),
      0,
    );
    return splitBatch({ bytes, count: metrics.length }, this.env.chunkSize);
  }

  /** A datagram's lines: a last line without newline counts, an empty one does not. */
  decodeMessages(messages: ReadonlyArray<{ bytes: Uint8Array }>): EventBatch[] {
    const lines: Uint8Array[] = [];
    for (const { bytes } of messages) {
      this.env.telemetry.receivedRaw(bytes.byteLength);
      lines.push(...splitLines(bytes));
      const rest = bytes.subarray(bytes.lastIndexOf(NEWLINE) + 1);
      if (rest.byteLength > 0) lines.push(rest);
    }
    return this.lines(lines);
  }

  stream(): ChunkStream {
    let pending = new Uint8Array(0);
    return {
      push: (chunk) => {
        this.env.telemetry.receivedRaw(chunk.byteLength);
        const joined = pending.byteLength === 0 ? chunk : Buffer.concat([pending, chunk]);
        const complete = splitLines(joined);
        pending = joined.slice(joined.lastIndexOf(NEWLINE) + 1);
        return this.lines(complete);
      },
      end: () => {
        const rest = pending;
        pending = new Uint8Array(0);
        return rest.byteLength > 0 ? this.lines([rest]) : [];
      },
    };
  }
}

/** The lines ended by a newline in `bytes` (an empty one included: Vector's parser rejects it). */
function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  for (let start = 0, end = bytes.indexOf(NEWLINE); end >= 0; start = end + 1, end = bytes.indexOf(NEWLINE, start))
    lines.push(bytes.subarray(start, end));
  return lines;
}

const definition: SourceDefinition<StatsdOptions> = {
  kind: 'source',
  type: 'statsd',
  description: 'Collect metrics emitted by the StatsD aggregator.',
  options,
  files: (options) => (options.mode === 'tcp' ? tlsFiles(options.tls) : []),
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  async build(options, env) {
    const decoder = new StatsdDecoder(env, options.sanitize, options.convert_to);
    const stamp = () => NO_STAMP;
    switch (options.mode) {
      case 'udp':
        return datagramListener(options.address, decoder, env, stamp, {
          receiveBufferBytes: options.receive_buffer_bytes,
        });
      case 'tcp': {
        const origin: StampOrigin = { sourceType: 'statsd', logNamespace: 'legacy' };
        return streamListener(await tcpListen(options, origin), decoder, env, stamp, options.shutdown_timeout_secs);
      }
      case 'unix':
        return streamListener({ kind: 'unix', path: options.path }, decoder, env, stamp, 0);
    }
  },
};

export default definition;
