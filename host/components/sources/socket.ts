// `socket`: events from TCP connections, UDP datagrams or a Unix stream socket. Each connection is framed
// on its own (newline delimited by default); each datagram is one message (framing `bytes` by default).
// Events get the peer's address under `host_key` and, over IP, its port under `port_key`. Over TCP, `tls`
// makes it a TLS server (support/tls.ts).

import { z } from 'zod';
import type { SourceDefinition } from '../component.js';
import {
  BYTES_FRAMING,
  decodedKinds,
  decodeSettings,
  decodingSchema,
  framingSchema,
  logNamespaceOf,
  logNamespaceOption,
  SourceDecoder,
  sourceStamp,
  stampSource,
} from '../support/decoding.js';
import { datagramListener, streamListener, tcpListen, type Peer } from '../support/listeners.js';
import { tlsFiles, tlsSourceSchema } from '../support/tls.js';

const common = {
  host_key: z.string().optional(),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
};
const ip = {
  address: z.string(),
  port_key: z.string().default('port'),
  receive_buffer_bytes: z.number().int().positive().optional(),
};
const unix = {
  path: z.string().min(1),
  socket_file_mode: z.number().int().min(0).max(0o7777).optional(),
};

const options = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('tcp'),
    ...common,
    ...ip,
    max_length: z.number().int().positive().optional(),
    connection_limit: z.number().int().positive().optional(),
    shutdown_timeout_secs: z.number().nonnegative().default(30),
    keepalive: z.strictObject({ time_secs: z.number().int().positive().optional() }).optional(),
    max_connection_duration_secs: z.number().int().nonnegative().optional(),
    tls: tlsSourceSchema.optional(),
  }),
  z.strictObject({ mode: z.literal('udp'), ...common, ...ip, max_length: z.number().int().positive().default(102400) }),
  z.strictObject({
    mode: z.literal('unix_stream'),
    ...common,
    ...unix,
    max_length: z.number().int().positive().optional(),
  }),
  z.strictObject({
    mode: z.literal('unix_datagram'),
    ...common,
    ...unix,
    max_length: z.number().int().positive().default(102400),
  }),
]);
type SocketOptions = z.infer<typeof options>;

const definition: SourceDefinition<SocketOptions> = {
  kind: 'source',
  type: 'socket',
  description: 'Collect logs using the socket client.',
  options,
  files: (options) => (options.mode === 'tcp' ? tlsFiles(options.tls) : []),
  outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
  async build(options, env) {
    const origin = { sourceType: 'socket', logNamespace: logNamespaceOf(env, options.log_namespace) };
    const stamp = (peer: Peer) => {
      const fields = sourceStamp(env, origin, options.host_key, peer.address);
      return 'port_key' in options && peer.port !== undefined
        ? stampSource(fields, origin, options.port_key, ['port'], peer.port)
        : fields;
    };
    // Without `framing`, streams are newline delimited, cut at `max_length` when given (Vector's older option).
    const streamFraming = {
      method: 'newline_delimited',
      max_length: options.max_length,
      oversized_action: 'truncate',
    } as const;
    switch (options.mode) {
      case 'tcp': {
        const decoder = new SourceDecoder(
          env,
          decodeSettings(options.decoding, options.framing, streamFraming, env, origin.logNamespace),
        );
        return streamListener(await tcpListen(options, origin), decoder, env, stamp, options.shutdown_timeout_secs);
      }
      case 'unix_stream': {
        const decoder = new SourceDecoder(
          env,
          decodeSettings(options.decoding, options.framing, streamFraming, env, origin.logNamespace),
        );
        return streamListener(
          { kind: 'unix', path: options.path, socketFileMode: options.socket_file_mode },
          decoder,
          env,
          stamp,
          0,
        );
      }
      case 'udp': {
        const decoder = new SourceDecoder(
          env,
          decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
        );
        return datagramListener(options.address, decoder, env, stamp, {
          maxLength: options.max_length,
          receiveBufferBytes: options.receive_buffer_bytes,
        });
      }
      case 'unix_datagram':
        throw new Error(
          'mode "unix_datagram" is not available: Node.js has no Unix datagram sockets (use "unix_stream" or "udp")',
        );
    }
  },
};

export default definition;
