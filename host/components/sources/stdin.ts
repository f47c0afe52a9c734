// `stdin`: events from the process's standard input, newline delimited by default. The source ends at EOF
// (and with it, once drained, the pipeline). Reading waits for each batch to be accepted downstream, so a
// slow sink leaves stdin unread rather than filling memory.

import { createReadStream, fstatSync } from 'node:fs';
import { Socket, type SocketConstructorOpts } from 'node:net';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { SourceDefinition } from '../component.js';
import {
  decodedKinds,
  decodeSettings,
  decodingSchema,
  framingSchema,
  logNamespaceOf,
  logNamespaceOption,
  pumpReadable,
  SourceDecoder,
  sourceStamp,
} from '../support/decoding.js';

const options = z.strictObject({
  max_length: z.number().int().positive().default(102400),
  host_key: z.string().optional(),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});
type StdinOptions = z.infer<typeof options>;

/** The definition reading from `input` (tests give their own stream; svc reads `process.stdin`). */
export function stdinSource(input: () => Readable): SourceDefinition<StdinOptions> {
  return {
    kind: 'source',
    type: 'stdin',
    description: 'Collect logs sent via stdin.',
    options,
    outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
    async build(options, env) {
      // Without `framing`, lines longer than `max_length` are truncated (the option's documented meaning).
      const defaultFraming = {
        method: 'newline_delimited',
        max_length: options.max_length,
        oversized_action: 'truncate',
      } as const;
      const origin = { sourceType: 'stdin', logNamespace: logNamespaceOf(env, options.log_namespace) };
      const decoder = new SourceDecoder(
        env,
        decodeSettings(options.decoding, options.framing, defaultFraming, env, origin.logNamespace),
      );
      return {
        run: (context) =>
          pumpReadable(input(), decoder.stream(), context, () => sourceStamp(env, origin, options.host_key)),
      };
    },
  };
}

/** Bytes asked of a file or pipe per read: 64 KiB reads made batches of ~400 events, and the cost of a
 * batch (a message to the worker and back, a call into wasm) showed in the pipeline's throughput. */
const READ_BYTES = 256 * 1024;

/** Standard input: a file or pipe read in large pieces; a terminal or socket as Node opens it. A pipe is a
 * socket handle, not a file stream: a file read pending on a pipe nobody writes to could not be cancelled,
 * and would hold a graceful shutdown until the writer closed it. */
function standardInput(): Readable {
  let stats;
  try {
    stats = fstatSync(0);
  } catch {
    return process.stdin;
  }
  if (stats.isFile()) return createReadStream('', { fd: 0, highWaterMark: READ_BYTES, autoClose: false });
  // `readableHighWaterMark` is a stream option the socket passes on (@types/node's socket options lack it).
  if (stats.isFIFO())
    return new Socket({
      fd: 0,
      readable: true,
      writable: false,
      readableHighWaterMark: READ_BYTES,
    } as SocketConstructorOpts);
  return process.stdin;
}

export default stdinSource(standardInput);
