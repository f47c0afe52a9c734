// `stdin`: events from the process's standard input, newline delimited by default. The source ends at EOF
// (and with it, once drained, the pipeline). Reading waits for each batch to be accepted downstream, so a
// slow sink leaves stdin unread rather than filling memory.

import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { SourceDefinition } from '../component.js';
import { decodedKinds, decodeSettings, decodingSchema, framingSchema, pumpReadable, SourceDecoder, sourceStamp } from '../support/decoding.js';

const options = z.strictObject({
  max_length: z.number().int().positive().default(102400),
  host_key: z.string().optional(),
  decoding: decodingSchema,
  framing: framingSchema,
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
      const defaultFraming = { method: 'newline_delimited', max_length: options.max_length, oversized_action: 'truncate' } as const;
      const decoder = new SourceDecoder(env, decodeSettings(options.decoding, options.framing, defaultFraming, env));
      return {
        run: (context) => pumpReadable(input(), decoder.stream(), context, () => sourceStamp(env, 'stdin', options.host_key)),
      };
    },
  };
}

export default stdinSource(() => process.stdin);
